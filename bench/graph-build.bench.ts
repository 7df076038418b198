/**
 * Benchmark (not a test): loading a large trace file and building its run graph, against a
 * bare JSON.parse of the same file, side by side in one process. Target: ratio ≤ 2.
 *
 * The file holds ~10,000 spans: the example traces of traces/ (recorded by real runs),
 * copied with fresh ids until the count is reached — several hundred generates, resumes
 * included. Run: `node --import tsx bench/graph-build.bench.ts`. docs/performance.md ("Graph build")
 * says where the time goes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildRunGraph } from '../lib/graph/build-run-graph';
import { loadTraceFile } from '../lib/store/load-trace-file';
import type { Span } from '../lib/spans/span';
import { median } from './lib/bench-stats';
import { writeCopiedTraces } from './lib/copied-traces';
import { startBenchResult } from './lib/start-bench-result';

const TARGET_SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

async function makeLargeFile(directory: string): Promise<{ file: string; spans: number; bytes: number }> {
  const sources: Span[][] = [];
  for (const name of readdirSync('traces').filter((entry) => entry.endsWith('.json'))) sources.push(await loadTraceFile(path.join('traces', name)));
  const file = path.join(directory, 'large.otlp.json');
  return { file, ...writeCopiedTraces(sources, { targetSpans: TARGET_SPANS, file }) };
}

const result = startBenchResult('graph-build');
const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-graph-bench-'));
try {
  const { file, spans, bytes } = await makeLargeFile(directory);
  const bare: number[] = [];
  const full: number[] = [];
  let summary = '';
  let generates = 0;
  let nodes = 0;
  // Alternate the two, so neither gets a warmer machine; the first two rounds only warm up
  // the JIT (JSON.parse is native and needs none) and are not counted.
  for (let round = -2; round < ROUNDS; round++) {
    let start = performance.now();
    JSON.parse(readFileSync(file, 'utf8'));
    if (round >= 0) bare.push(performance.now() - start);
    start = performance.now();
    const graph = buildRunGraph(await loadTraceFile(file));
    if (round >= 0) full.push(performance.now() - start);
    summary = `${graph.summary.generates} generates, ${graph.nodes.length} nodes`;
    generates = graph.summary.generates;
    nodes = graph.nodes.length;
  }
  const ratio = median(full) / median(bare);
  console.log(`graph build: ${spans} spans, ${(bytes / 1e6).toFixed(1)} MB, ${summary}, median of ${ROUNDS}`);
  console.log(`  JSON.parse of the file          : ${median(bare).toFixed(1)} ms`);
  console.log(`  loadTraceFile + buildRunGraph   : ${median(full).toFixed(1)} ms`);
  console.log(`  ratio                           : ${ratio.toFixed(2)}× (target ≤ 2)`);
  result.write({
    measures: `loadTraceFile + buildRunGraph on ${spans} spans (${(bytes / 1e6).toFixed(1)} MB, the example traces copied) vs a bare JSON.parse of the same file, alternating in one process`,
    numbers: { spans, bytes, generates, nodes, rounds: ROUNDS, jsonParseMs: median(bare), loadAndBuildMs: median(full), ratio },
    summary: `${ratio.toFixed(2)}× (JSON.parse ${median(bare).toFixed(1)} ms, loadTraceFile + buildRunGraph ${median(full).toFixed(1)} ms; median of ${ROUNDS})`,
    target: 'ratio ≤ 2×',
    met: ratio <= 2,
  });
} finally {
  rmSync(directory, { recursive: true, force: true });
}
