/**
 * Benchmark (not a test): what the runner's crash-safe span reporting adds per model turn.
 * The same 20-round loop runs, alternating, in one process (like bench/step-overhead.bench.ts):
 *  A. what the runner did before: span starts queued and sent per tick, nothing else;
 *  B. what it does now: starts (action spans at once), ends as plain records, the tool
 *     request's input and ref carried to the tool span.
 * Both run the runner's tool middleware (the time limit), as every run in the runner does.
 * Each IPC message is written as JSON, as `process.send` does. No server: the machine's
 * load hurts both sides alike. Prints both, the ratio, and the IPC bytes per run.
 *
 * Run: `node --import tsx bench/span-outbox-overhead.bench.ts`.
 */
import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { runContext } from '../lib/runner/run-context';
import type { RunnerEvent } from '../lib/runner/runner-protocol';
import { RunnerSpanOutbox } from '../lib/runner/runner-span-outbox';
import { SpanLifecycleReporter } from '../lib/runner/span-lifecycle-reporter';
import { engineSpanStarts } from '../lib/runner/span-starts';
import { nodeRunnerOptions } from '../lib/runtimes/node-runner-options';
import { REGISTERED_RUNTIMES } from '../lib/runtimes/with-runtime';
import { benchLoopGenkit } from './lib/bench-loop';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS ?? 20);
const MODEL_TURNS = 21;

const result = startBenchResult('span-outbox-overhead');
let full = false;
let bytesSent = 0;
const outbox = new RunnerSpanOutbox((event: RunnerEvent) => {
  // What node's IPC channel does with every message (serialization 'json').
  bytesSent += JSON.stringify(event).length;
});
const reporter = new SpanLifecycleReporter({
  // The registered engines' span starts, as the runner asks them.
  spanStarts: engineSpanStarts(nodeRunnerOptions(REGISTERED_RUNTIMES).engines),
  // Before: every start batched per tick, no ends.
  onStart: (event, { urgent }) => outbox.queueStart(event, full && urgent),
  onEnd: (span, owner) => (full ? outbox.queueEnd(span, owner) : undefined),
});
const switchable: SpanProcessor = {
  onStart: (span, parent) => reporter.onStart(span, parent),
  onEnd: (span: ReadableSpan) => reporter.onEnd(span),
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [switchable, new SimpleSpanProcessor(exporter)] }));
const { runnerMiddleware } = await import('../lib/runtimes/genkit-js/run/run-generate');

const { ai, scenario } = await benchLoopGenkit();

let runCounter = 0;
async function runLoop(withReporting: boolean): Promise<number> {
  full = withReporting;
  const run = { runId: `bench-${++runCounter}`, requestId: `bench-${runCounter}:1`, traceIds: new Set<string>() };
  const start = performance.now();
  const response = await runContext.run(run, () =>
    ai.generate({
      model: `scripted/${scenario.name}`,
      prompt: scenario.prompt,
      tools: scenario.tools,
      maxTurns: scenario.maxTurns,
      use: [runnerMiddleware({ ai, toolTimeoutMs: 60_000 })()],
    }),
  );
  outbox.flush();
  const elapsed = (performance.now() - start) / MODEL_TURNS;
  if (response.finishReason !== 'stop') throw new Error(`run ended ${response.finishReason}`);
  exporter.reset();
  return elapsed;
}

for (let warm = 0; warm < 10; warm++) {
  await runLoop(false);
  await runLoop(true);
}
let bytesBefore = 0;
let bytesNow = 0;
const bare: number[] = [];
const reported: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const withReporting of round % 2 === 0 ? [false, true] : [true, false]) {
    let total = 0;
    bytesSent = 0;
    for (let index = 0; index < RUNS_PER_ROUND; index++) total += await runLoop(withReporting);
    (withReporting ? reported : bare).push(total / RUNS_PER_ROUND);
    if (withReporting) bytesNow += bytesSent;
    else bytesBefore += bytesSent;
  }
}
const runs = ROUNDS * RUNS_PER_ROUND;
console.log(`runner span reporting over IPC: ${MODEL_TURNS} model turns per run, ${ROUNDS}×${RUNS_PER_ROUND} runs each`);
console.log(`  before (starts only)            : ${median(bare).toFixed(3)} ms per model turn (median), ${Math.round(bytesBefore / runs / 1024)} KiB IPC per run`);
console.log(`  now (starts, ends, tool request): ${median(reported).toFixed(3)} ms per model turn (median), ${Math.round(bytesNow / runs / 1024)} KiB IPC per run`);
const ratio = median(reported) / median(bare);
console.log(`  ratio                           : ${ratio.toFixed(3)}×, +${(median(reported) - median(bare)).toFixed(3)} ms per model turn`);
result.write({
  measures: `per model turn, the 20-round genkit loop with the runner's crash-safe span reporting (starts, ends and the tool request, each IPC message JSON-encoded) vs what it reported before (starts only), both with the runner's tool middleware, alternating in one process, no server`,
  numbers: {
    modelTurns: MODEL_TURNS,
    rounds: ROUNDS,
    runsPerRound: RUNS_PER_ROUND,
    beforeMsPerTurn: median(bare),
    nowMsPerTurn: median(reported),
    ratio,
    addedMsPerTurn: median(reported) - median(bare),
    beforeKibPerRun: Math.round(bytesBefore / runs / 1024),
    nowKibPerRun: Math.round(bytesNow / runs / 1024),
  },
  summary: `${ratio.toFixed(3)}×, +${(median(reported) - median(bare)).toFixed(3)} ms per model turn (before ${median(bare).toFixed(3)} ms and ${Math.round(bytesBefore / runs / 1024)} KiB of IPC a run, now ${median(reported).toFixed(3)} ms and ${Math.round(bytesNow / runs / 1024)} KiB)`,
  target: null,
  met: null,
});
