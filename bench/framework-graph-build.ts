/**
 * Benchmark (not a test): the graph build of every recorded framework trace, each against a bare
 * JSON.parse of the same file, side by side in one process — what each dialect's reading costs on
 * real traces (the frameworks' attributes are large: LangGraph's callbacks record the whole graph
 * state on every task span). Then one large file mixing them all (the example traces of traces/,
 * the AI SDK's fixtures and every framework's, copied with fresh ids to ~10,000 spans) read with
 * every dialect registered: the target of bench/graph-build.ts, ≤ 2× JSON.parse, on these traces.
 * Prints a table and writes bench/results/framework-graph-build.json.
 *
 *   node --import tsx bench/framework-graph-build.ts
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildRunGraph } from '../lib/graph/build-run-graph';
import { encodeOtlpJson } from '../lib/trace/otlp-json';
import { loadTraceFile } from '../lib/trace/load-trace-file';
import type { Span } from '../lib/trace/span';
import { median } from './bench-stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
const FOLDERS: { runtime: string; folder: string }[] = [
  ...readdirSync('lib/runtimes').map((runtime) => ({ runtime, folder: path.join('lib', 'runtimes', runtime, '__fixtures__') })),
  { runtime: 'ai-sdk', folder: path.join('lib', 'dialects', 'ai-sdk', '__fixtures__') },
  { runtime: 'otel-genai (hand-written)', folder: path.join('lib', 'dialects', 'otel-genai', '__fixtures__') },
];

/** Medians of `rounds` alternating runs of a bare parse and a graph build of one file (two warm-up rounds not counted). */
async function measure(file: string, rounds: number): Promise<{ parseMs: number; buildMs: number; runtimes: string[] }> {
  const bare: number[] = [];
  const full: number[] = [];
  let runtimes: string[] = [];
  for (let round = -2; round < rounds; round++) {
    let start = performance.now();
    JSON.parse(readFileSync(file, 'utf8'));
    if (round >= 0) bare.push(performance.now() - start);
    start = performance.now();
    const graph = buildRunGraph(await loadTraceFile(file));
    if (round >= 0) full.push(performance.now() - start);
    runtimes = [...new Set(graph.generates.map((generate) => generate.runtime ?? '—'))];
  }
  return { parseMs: median(bare), buildMs: median(full), runtimes };
}

function randomHex(bytes: number): string {
  let text = '';
  for (let index = 0; index < bytes; index++) text += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return text;
}

/** One file of ~TARGET_SPANS spans: every source trace set copied with fresh ids, round robin. */
async function mixedFile(directory: string, files: string[]): Promise<{ file: string; spans: number; bytes: number }> {
  const sources: Span[][] = [];
  for (const file of files) sources.push(await loadTraceFile(file));
  const spans: Span[] = [];
  for (let copy = 0; spans.length < TARGET_SPANS; copy++) {
    const source = sources[copy % sources.length];
    const traceIds = new Map<string, string>();
    const spanIds = new Map<string, string>();
    const mapTrace = (id: string) => traceIds.get(id) ?? (traceIds.set(id, randomHex(16)), traceIds.get(id)!);
    const mapSpan = (id: string) => spanIds.get(id) ?? (spanIds.set(id, randomHex(8)), spanIds.get(id)!);
    for (const span of source) spans.push({ ...span, traceId: mapTrace(span.traceId), spanId: mapSpan(span.spanId), parentSpanId: span.parentSpanId ? mapSpan(span.parentSpanId) : undefined });
  }
  const file = path.join(directory, 'mixed.otlp.json');
  const text = JSON.stringify(encodeOtlpJson(spans));
  writeFileSync(file, text);
  return { file, spans: spans.length, bytes: text.length };
}

const rows: { runtime: string; fixture: string; kilobytes: number; parseMs: number; buildMs: number; ratio: number; readAs: string[] }[] = [];
for (const { runtime, folder } of FOLDERS) {
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.otlp.json')).sort()) {
    const file = path.join(folder, name);
    const { parseMs, buildMs, runtimes } = await measure(file, ROUNDS);
    rows.push({ runtime, fixture: name.replace(/\.otlp\.json$/, ''), kilobytes: Math.round(readFileSync(file).length / 1024), parseMs, buildMs, ratio: buildMs / parseMs, readAs: runtimes });
  }
}
console.log(`graph build per framework trace, median of ${ROUNDS} (ms: JSON.parse of the file | loadTraceFile + buildRunGraph | ratio | read as)`);
for (const row of rows) console.log(`  ${`${row.runtime}/${row.fixture}`.padEnd(62)} ${String(row.kilobytes).padStart(4)} KB  ${row.parseMs.toFixed(2).padStart(6)} | ${row.buildMs.toFixed(2).padStart(6)} | ${row.ratio.toFixed(2)}× | ${row.readAs.join(', ')}`);

const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-framework-bench-'));
let mixed: { spans: number; megabytes: number; parseMs: number; buildMs: number; ratio: number };
try {
  const sources = [...readdirSync('traces').filter((entry) => entry.endsWith('.json')).map((entry) => path.join('traces', entry)), ...FOLDERS.flatMap(({ folder }) => readdirSync(folder).filter((entry) => entry.endsWith('.otlp.json')).map((entry) => path.join(folder, entry)))];
  const { file, spans, bytes } = await mixedFile(directory, sources);
  const measured = await measure(file, 7);
  mixed = { spans, megabytes: bytes / 1e6, parseMs: measured.parseMs, buildMs: measured.buildMs, ratio: measured.buildMs / measured.parseMs };
  console.log(`mixed file (traces/ + every fixture, every dialect registered): ${spans} spans, ${mixed.megabytes.toFixed(1)} MB, median of 7`);
  console.log(`  JSON.parse ${mixed.parseMs.toFixed(1)} ms | loadTraceFile + buildRunGraph ${mixed.buildMs.toFixed(1)} ms | ratio ${mixed.ratio.toFixed(2)}× (target ≤ 2)`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
mkdirSync(path.join('bench', 'results'), { recursive: true });
writeFileSync(path.join('bench', 'results', 'framework-graph-build.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), rounds: ROUNDS, fixtures: rows, mixed }, null, 1)}\n`);
