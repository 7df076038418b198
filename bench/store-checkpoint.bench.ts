/**
 * Benchmark (not a test): what SQLite's log checkpoints cost the thread that commits, with the
 * store checkpointing on commit (SQLite's default, as the CLI's store does) and with its
 * checkpoints in a worker thread (lib/store/wal-checkpointer.ts, as the server's store does).
 *
 * Two stores side by side in one run, appended to alternately in blocks: each append is one
 * real 62-span trace of the bench loop (21 model turns, 20 tool runs: run once here by real
 * genkit and captured in process, ≈290 KB of OTLP JSON), under a fresh trace id, awaited
 * until committed, as the server appends a run's spans. Prints per append the mean, p99 and
 * longest time, the mean's ratio, the log file's largest size (it must stay bounded with the
 * worker too), and the checkpoints the worker did.
 *
 * Run: `node --import tsx bench/store-checkpoint.bench.ts` (BENCH_APPENDS, BENCH_BLOCKS; no build needed).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summarizeCapturedTrace } from '../lib/graph/trace-sessions';
import { startInProcessCapture } from '../lib/runner/in-process-capture';
import type { Span } from '../lib/spans/span';
import { TraceStore } from '../lib/store/trace-store';
import { median, percentile } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 600);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);

const result = startBenchResult('store-checkpoint');
// Capture first: genkit binds to the tracer provider it finds when it is imported.
const capture = await startInProcessCapture({ serviceName: 'bench-store-checkpoint' });
const { benchLoopGenkit } = await import('./lib/bench-loop');
const { ai, scenario } = await benchLoopGenkit();
await ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
const { spans: template } = await capture.take();
await capture.shutdown();
if (template.length !== 62) throw new Error(`the bench loop's run ended ${template.length} spans, expected 62`);

let serial = 0;
/** The captured run under a fresh trace id. */
function freshTrace(): Span[] {
  const traceId = `c${(serial++).toString(16).padStart(31, '0')}`;
  return template.map((span) => ({ ...span, traceId }));
}

interface Side {
  label: string;
  store: TraceStore;
  walFile: string;
  times: number[];
  largestWal: number;
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-store-checkpoint-'));
const side = (label: string, background: boolean): Side => {
  const dataDir = path.join(directory, background ? 'background' : 'on-commit');
  const store = new TraceStore({
    dataDir,
    savedDir: path.join(dataDir, 'saved'),
    summarize: summarizeCapturedTrace,
    ...(background ? { backgroundCheckpoints: { projectDir: process.cwd() } } : {}),
  });
  return { label, store, walFile: path.join(dataDir, 'loopscope.db-wal'), times: [], largestWal: 0 };
};
const sides = [side('checkpoints on commit (SQLite default)', false), side('checkpoints in a worker thread', true)];
try {
  console.log(`store checkpoints: ${APPENDS} appends of one ${template.length}-span trace per store, in ${BLOCKS} alternating blocks`);
  for (const { store } of sides) await store.append(freshTrace()); // opens the database (and starts the worker)
  for (let block = 0; block < BLOCKS; block++) {
    for (const current of block % 2 === 0 ? sides : [...sides].reverse()) {
      for (let index = 0; index < APPENDS / BLOCKS; index++) {
        const spans = freshTrace();
        const start = performance.now();
        await current.store.append(spans);
        current.times.push(performance.now() - start);
        current.largestWal = Math.max(current.largestWal, statSync(current.walFile).size);
      }
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (const { label, times, largestWal } of sides) {
    console.log(
      `  ${label.padEnd(40)}: mean ${mean(times).toFixed(2)} ms, median ${median(times).toFixed(2)}, p99 ${percentile(times, 99).toFixed(1)}, longest ${Math.max(...times).toFixed(1)} ms per append; log file at most ${(largestWal / 2 ** 20).toFixed(1)} MiB`,
    );
  }
  const [onCommit, background] = sides;
  const checkpoints = await background.store.backgroundCheckpointCount();
  console.log(`  mean append, worker against on commit   : ${(mean(background.times) / mean(onCommit.times)).toFixed(2)}× (${checkpoints} checkpoints in the worker)`);
  if (checkpoints === 0) throw new Error('the worker thread did no checkpoint');
  const figures = ({ times, largestWal }: Side) => ({ meanMs: mean(times), medianMs: median(times), p99Ms: percentile(times, 99), longestMs: Math.max(...times), largestLogMib: largestWal / 2 ** 20 });
  const [sync, worker] = [figures(onCommit), figures(background)];
  const ratio = mean(background.times) / mean(onCommit.times);
  result.write({
    measures: `per append of one real ${template.length}-span trace of the bench loop (captured from real genkit in the bench), awaited until committed, back to back, ${APPENDS} per store in ${BLOCKS} alternating blocks: a store with SQLite's checkpoints on commit (the CLI's) vs one with them in a worker thread (lib/store/wal-checkpointer.ts, the server's)`,
    numbers: { appendsPerStore: APPENDS, blocks: BLOCKS, spansPerAppend: template.length, onCommit: sync, worker, meanRatio: ratio, workerCheckpoints: checkpoints },
    summary: `mean ${worker.meanMs.toFixed(2)} vs ${sync.meanMs.toFixed(2)} ms (${ratio.toFixed(2)}×, worker against on commit), p99 ${worker.p99Ms.toFixed(1)} vs ${sync.p99Ms.toFixed(1)} ms, longest ${worker.longestMs.toFixed(1)} vs ${sync.longestMs.toFixed(1)} ms; the log file at most ${worker.largestLogMib.toFixed(1)} vs ${sync.largestLogMib.toFixed(1)} MiB; ${checkpoints} checkpoints in the worker`,
    target: null,
    met: null,
  });
} finally {
  for (const { store } of sides) await store.close();
  rmSync(directory, { recursive: true, force: true });
}
