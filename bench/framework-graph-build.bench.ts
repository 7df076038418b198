/**
 * Benchmark (not a test): the graph build of every recorded framework trace, each against a bare
 * JSON.parse of the same file, side by side in one process — what each dialect's reading costs on
 * real traces (the frameworks' attributes are large: LangGraph's callbacks record the whole graph
 * state on every task span). Then one large file mixing them all (the example traces of traces/
 * and every runtime's fixtures, copied with fresh ids to ~10,000 spans) read with every dialect
 * registered: the target of graph-build, ≤ 2× JSON.parse, on these traces.
 *
 *   node --import tsx bench/framework-graph-build.bench.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTraceFile } from '../lib/store/load-trace-file';
import type { Span } from '../lib/spans/span';
import { writeCopiedTraces } from './lib/copied-traces';
import { measureGraphBuild } from './lib/measure-graph-build';
import { startBenchResult } from './lib/start-bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
/** Every runtime folder with recorded traces (lib/runtimes/<runtime>/__fixtures__/*.otlp.json). */
const FOLDERS = readdirSync(path.join('lib', 'runtimes'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({ runtime: entry.name, folder: path.join('lib', 'runtimes', entry.name, '__fixtures__') }))
  .filter(({ folder }) => {
    try {
      return readdirSync(folder).some((name) => name.endsWith('.otlp.json'));
    } catch {
      return false;
    }
  });

/** Medians of `rounds` alternating runs of a bare parse and a graph build of one file, and the runtimes its calls were read by. */
async function measure(file: string, rounds: number): Promise<{ parseMs: number; buildMs: number; runtimes: string[] }> {
  const { parseMs, buildMs, graph } = await measureGraphBuild(file, rounds);
  return { parseMs, buildMs, runtimes: [...new Set(graph.generates.map((generate) => generate.runtime ?? '—'))] };
}

const result = startBenchResult('framework-graph-build');
const rows: { runtime: string; fixture: string; kilobytes: number; parseMs: number; buildMs: number; ratio: number; readAs: string[] }[] = [];
for (const { runtime, folder } of FOLDERS) {
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.otlp.json')).sort()) {
    const file = path.join(folder, name);
    const { parseMs, buildMs, runtimes } = await measure(file, ROUNDS);
    rows.push({ runtime, fixture: name.replace(/\.otlp\.json$/, ''), kilobytes: Math.round(readFileSync(file).length / 1024), parseMs, buildMs, ratio: buildMs / parseMs, readAs: runtimes });
  }
}
console.log(`graph build per recorded trace, median of ${ROUNDS} (ms: JSON.parse of the file | loadTraceFile + buildRunGraph | ratio | read as)`);
for (const row of rows) console.log(`  ${`${row.runtime}/${row.fixture}`.padEnd(62)} ${String(row.kilobytes).padStart(4)} KB  ${row.parseMs.toFixed(2).padStart(6)} | ${row.buildMs.toFixed(2).padStart(6)} | ${row.ratio.toFixed(2)}× | ${row.readAs.join(', ')}`);

const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-framework-bench-'));
try {
  const files = [
    ...readdirSync('traces').filter((entry) => entry.endsWith('.json')).map((entry) => path.join('traces', entry)),
    ...FOLDERS.flatMap(({ folder }) => readdirSync(folder).filter((entry) => entry.endsWith('.otlp.json')).map((entry) => path.join(folder, entry))),
  ];
  const sources: Span[][] = [];
  for (const file of files) sources.push(await loadTraceFile(file));
  const file = path.join(directory, 'mixed.otlp.json');
  const { spans, bytes } = writeCopiedTraces(sources, { targetSpans: TARGET_SPANS, file });
  const mixed = await measure(file, 7);
  const ratio = mixed.buildMs / mixed.parseMs;
  const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a), rows[0]);
  console.log(`mixed file (traces/ + every fixture, every dialect registered): ${spans} spans, ${(bytes / 1e6).toFixed(1)} MB, median of 7`);
  console.log(`  JSON.parse ${mixed.parseMs.toFixed(1)} ms | loadTraceFile + buildRunGraph ${mixed.buildMs.toFixed(1)} ms | ratio ${ratio.toFixed(2)}× (target ≤ 2)`);
  result.write({
    measures: `loadTraceFile + buildRunGraph vs a bare JSON.parse, per recorded trace of every runtime (${rows.length} files) and on one ${spans}-span file mixing them all, alternating in one process`,
    numbers: {
      fixtures: rows,
      mixed: { spans, bytes, rounds: 7, jsonParseMs: mixed.parseMs, loadAndBuildMs: mixed.buildMs, ratio },
      worstFixture: { name: `${worst.runtime}/${worst.fixture}`, ratio: worst.ratio },
    },
    summary: `mixed ${ratio.toFixed(2)}× (JSON.parse ${mixed.parseMs.toFixed(1)} ms, build ${mixed.buildMs.toFixed(1)} ms, ${spans} spans); slowest single trace ${worst.runtime}/${worst.fixture} ${worst.ratio.toFixed(2)}×`,
    target: 'mixed file ratio ≤ 2×',
    met: ratio <= 2,
  });
} finally {
  rmSync(directory, { recursive: true, force: true });
}
