/**
 * Benchmark (not a test): whether the trace store's costs grow with the store (issue 15,
 * item 1). Two stores side by side in one run, one holding 100 captured traces and one 10,000
 * (bench/lib/synthetic-traces.ts, summarized by the server's summarizer), measured alternately:
 *  - ingest: appending one real genkit trace (lib/graph/__fixtures__/multi-round.otlp.json,
 *    under a fresh trace id each time), awaited until committed; target ≤ 1.5× at 10,000;
 *  - list: the first page of 50 (`queryTraces`, what `GET /api/traces?limit=50` answers);
 *  - search: the traces matching two words (`?q=probe-model checkout`), and a status filter
 *    (`?status=error&limit=10`); targets ≤ 2× at 10,000.
 *  Both stores end with the same 50 newest "probe" traces (model `probe-model`, 20 of them
 *  from `checkout`, 10 failed), so every query returns the same rows from both: what grows is
 *  only the store around them.
 *  - and, for the record, the whole list (`GET /api/traces` without parameters), which is
 *    proportional to the store by nature.
 *
 * Run: `node --import tsx bench/store-scale.bench.ts` (no build needed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summarizeCapturedTrace } from '../lib/graph/trace-sessions';
import { listTraces, queryTraces } from '../lib/server/traces/list-traces';
import { loadTraceFile } from '../lib/store/load-trace-file';
import type { Span } from '../lib/spans/span';
import { TraceStore } from '../lib/store/trace-store';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';
import { traceSpans } from './lib/synthetic-traces';

const SIZES = [100, 10_000] as const;
const INGESTS = Number(process.env.BENCH_INGESTS ?? 200);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 40);

const result = startBenchResult('store-scale');
const template = await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'multi-round.otlp.json'));
const templateTraces = [...new Set(template.map((span) => span.traceId))];
let serial = 0;
/** The fixture under fresh trace ids (one per trace of it). */
function freshTrace(): Span[] {
  const ids = new Map(templateTraces.map((traceId) => [traceId, `f${(serial++).toString(16).padStart(31, '0')}`]));
  return template.map((span) => ({ ...span, traceId: ids.get(span.traceId) as string }));
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-store-scale-'));
const stores = new Map<number, TraceStore>();
try {
  const now = Date.now();
  for (const size of SIZES) {
    const dataDir = path.join(directory, String(size));
    const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
    const started = performance.now();
    for (let from = 0; from < size; from += 1_000) await store.append(Array.from({ length: Math.min(1_000, size - from) }, (_, index) => traceSpans(from + index, now)).flat());
    
    // The same newest traces in both stores: a model of their own, every 5th failed.
    const probes = Array.from({ length: 50 }, (_, index) =>
      traceSpans(index, now + 86_400_000).map((span) => ({
        ...span,
        traceId: `ab${span.traceId.slice(2)}`,
        ...(span.name.startsWith('scripted/') ? { name: 'probe-model', attributes: { ...span.attributes, 'genkit:name': 'probe-model' } } : {}),
        resource: { ...span.resource, 'service.name': index % 5 < 2 ? 'checkout' : 'support-bot' },
        ...(index % 5 === 0 && span.parentSpanId === undefined ? { status: { code: 2 as const, message: 'probe failed' }, attributes: { ...span.attributes, 'genkit:state': 'error' } } : {}),
      })),
    );
    await store.append(probes.flat());
    console.log(`seeded ${size} traces + 50 probes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    stores.set(size, store);
  }
  const time = async (task: () => Promise<unknown>) => {
    const started = performance.now();
    await task();
    return performance.now() - started;
  };
  const samples = new Map<string, number[]>();
  const record = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
  // Warm-up: statements prepared, links decided once.
  for (const store of stores.values()) {
    await store.append(freshTrace());
    await queryTraces({ store }, { limit: 100 });
  }
  for (let round = 0; round < INGESTS; round++) {
    for (const [size, store] of stores) record(`ingest ${size}`, await time(() => store.append(freshTrace())));
  }
  // The first page right after a write: the links are decided again (only traces that take part in links are read).
  for (let round = 0; round < QUERIES; round++) {
    for (const [size, store] of stores) {
      await store.append(freshTrace());
      record(`list after a write ${size}`, await time(() => queryTraces({ store }, { limit: 50 })));
      record(`list ${size}`, await time(() => queryTraces({ store }, { limit: 50 })));
      record(`search ${size}`, await time(() => queryTraces({ store }, { q: 'probe-model checkout', limit: 100 })));
      record(`status ${size}`, await time(() => queryTraces({ store }, { status: 'error', limit: 10 })));
      if (round % 8 === 0) record(`whole list ${size}`, await time(() => listTraces({ store })));
    }
  }
  // The same answers from both stores (the fresh ingests above are not probes).
  const answers = async (store: TraceStore) => [
    (await queryTraces({ store }, { q: 'probe-model checkout', limit: 100 })).traces.length,
    (await queryTraces({ store }, { status: 'error', limit: 10 })).traces.map((row) => row.traceId).join(),
  ];
  const [small, large] = [await answers(stores.get(100)!), await answers(stores.get(10_000)!)];
  if (JSON.stringify(small) !== JSON.stringify(large) || small[0] === 0) throw new Error(`bench: the stores answered differently: ${JSON.stringify([small, large])}`);
  const found = small[0];
  console.log(`\n${'measure'.padEnd(34)}${'100 traces'.padStart(12)}${'10,000'.padStart(12)}${'ratio'.padStart(9)}  target`);
  const targets: Record<string, string> = { ingest: '≤ 1.5×', list: '≤ 2×', search: '≤ 2×', status: '≤ 2×', 'list after a write': '≤ 2×', 'whole list': '—' };
  /** The ratio each measure may reach at 10,000 traces (the whole list has none: it grows with the store by nature). */
  const limits: Record<string, number | undefined> = { ingest: 1.5, list: 2, search: 2, status: 2, 'list after a write': 2 };
  const measured: Record<string, { traces100Ms: number; traces10000Ms: number; ratio: number }> = {};
  for (const measure of ['ingest', 'list', 'search', 'status', 'list after a write', 'whole list']) {
    const small = median(samples.get(`${measure} 100`)!);
    const large = median(samples.get(`${measure} 10000`)!);
    measured[measure] = { traces100Ms: small, traces10000Ms: large, ratio: large / small };
    console.log(`${`${measure} (median ms)`.padEnd(34)}${small.toFixed(2).padStart(12)}${large.toFixed(2).padStart(12)}${`${(large / small).toFixed(2)}×`.padStart(9)}  ${targets[measure]}`);
  }
  console.log(`\n(ingest: one ${template.length}-span genkit trace per append, ${INGESTS} per store; queries: ${QUERIES} rounds; the search matched ${found} traces in each store; load average ${os.loadavg()[0].toFixed(2)})`);
  const missed = Object.entries(limits).filter(([measure, limit]) => limit !== undefined && measured[measure].ratio > limit);
  const ms = (measure: string) => `${measured[measure].traces100Ms.toFixed(2)} vs ${measured[measure].traces10000Ms.toFixed(2)} ms`;
  result.write({
    measures: `the SQLite store holding 10,000 captured traces vs 100, side by side, alternating: appending one real ${template.length}-span genkit trace (until committed); the first page of 50; a two-word search; a status filter (the same 50 newest probe traces in both, so every query returns the same rows); the first page right after a write; the whole list`,
    numbers: { spansPerIngest: template.length, ingestsPerStore: INGESTS, queryRounds: QUERIES, searchMatched: found, ...measured },
    summary: `at 10,000 traces against 100: ingest ${measured.ingest.ratio.toFixed(2)}× (${ms('ingest')}), page ${measured.list.ratio.toFixed(2)}×, search ${measured.search.ratio.toFixed(2)}× (${ms('search')}), status ${measured.status.ratio.toFixed(2)}×, first page after a write ${measured['list after a write'].ratio.toFixed(2)}×; the whole list ${ms('whole list')}`,
    target: 'at 10,000 traces: ingest ≤ 1.5×; page, search, status and page after a write ≤ 2×',
    met: missed.length === 0,
  });
} finally {
  for (const store of stores.values()) await store.close();
  rmSync(directory, { recursive: true, force: true });
}
