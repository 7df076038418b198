/**
 * Benchmark (not a test): loading a large trace file and building its run graph, against a
 * bare JSON.parse of the same file, side by side in one process. Target: ratio ≤ 2.
 *
 * The file holds ~10,000 spans: the example traces of traces/ (recorded by real runs),
 * copied with fresh ids until the count is reached — several hundred generates, resumes
 * included. Run: `node --import tsx bench/graph-build.bench.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildRunGraph } from '../lib/graph/build-run-graph';
import { encodeOtlpJson } from '../lib/trace/otlp-json';
import { loadTraceFile } from '../lib/trace/load-trace-file';
import type { Span } from '../lib/trace/span';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const TARGET_SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function randomHex(bytes: number): string {
  let text = '';
  for (let index = 0; index < bytes; index++) text += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return text;
}

async function makeLargeFile(directory: string): Promise<{ file: string; spans: number; bytes: number }> {
  const sources: Span[][] = [];
  for (const name of readdirSync('traces').filter((entry) => entry.endsWith('.json'))) sources.push(await loadTraceFile(path.join('traces', name)));
  const spans: Span[] = [];
  for (let copy = 0; spans.length < TARGET_SPANS; copy++) {
    const source = sources[copy % sources.length];
    const traceIds = new Map<string, string>();
    const spanIds = new Map<string, string>();
    const mapTrace = (id: string) => traceIds.get(id) ?? (traceIds.set(id, randomHex(16)), traceIds.get(id)!);
    const mapSpan = (id: string) => spanIds.get(id) ?? (spanIds.set(id, randomHex(8)), spanIds.get(id)!);
    for (const span of source) {
      spans.push({ ...span, traceId: mapTrace(span.traceId), spanId: mapSpan(span.spanId), parentSpanId: span.parentSpanId ? mapSpan(span.parentSpanId) : undefined });
    }
  }
  const file = path.join(directory, 'large.otlp.json');
  const text = JSON.stringify(encodeOtlpJson(spans));
  writeFileSync(file, text);
  return { file, spans: spans.length, bytes: text.length };
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
