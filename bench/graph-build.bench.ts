/**
 * Benchmark (not a test): loading a large trace file and building its run graph, against a
 * bare JSON.parse of the same file, side by side in one process. Target: ratio ≤ 2.
 *
 * The file holds ~10,000 spans: the example traces of traces/ (recorded by real runs),
 * copied with fresh ids until the count is reached — several hundred generates, resumes
 * included. Run: `node --import tsx bench/graph-build.bench.ts`. docs/performance.md ("Graph build")
 * says where the time goes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTraceFile } from '../lib/store/load-trace-file';
import type { Span } from '../lib/spans/span';
import { writeCopiedTraces } from './lib/copied-traces';
import { measureGraphBuild } from './lib/measure-graph-build';
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
  const { parseMs, buildMs, graph } = await measureGraphBuild(file, ROUNDS);
  const generates = graph.summary.generates;
  const nodes = graph.nodes.length;
  const summary = `${generates} generates, ${nodes} nodes`;
  const ratio = buildMs / parseMs;
  console.log(`graph build: ${spans} spans, ${(bytes / 1e6).toFixed(1)} MB, ${summary}, median of ${ROUNDS}`);
  console.log(`  JSON.parse of the file          : ${parseMs.toFixed(1)} ms`);
  console.log(`  loadTraceFile + buildRunGraph   : ${buildMs.toFixed(1)} ms`);
  console.log(`  ratio                           : ${ratio.toFixed(2)}× (target ≤ 2)`);
  result.write({
    measures: `loadTraceFile + buildRunGraph on ${spans} spans (${(bytes / 1e6).toFixed(1)} MB, the example traces copied) vs a bare JSON.parse of the same file, alternating in one process`,
    numbers: { spans, bytes, generates, nodes, rounds: ROUNDS, jsonParseMs: parseMs, loadAndBuildMs: buildMs, ratio },
    summary: `${ratio.toFixed(2)}× (JSON.parse ${parseMs.toFixed(1)} ms, loadTraceFile + buildRunGraph ${buildMs.toFixed(1)} ms; median of ${ROUNDS})`,
    target: 'ratio ≤ 2×',
    met: ratio <= 2,
  });
} finally {
  rmSync(directory, { recursive: true, force: true });
}
