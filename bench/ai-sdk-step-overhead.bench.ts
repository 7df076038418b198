/**
 * Benchmark (not a test): the cost of the AI SDK step hooks when no pause is taken. The same
 * 20-round loop (the `bench-loop` script: 21 model calls, 20 tool runs) runs in the real
 * `generateText` on the scripted `LanguageModelV4`, bare, and with Loopscope's hooks installed in
 * Run mode (the model wrapped with `wrapLanguageModel`, every tool's `execute` wrapped with its
 * time limit and Stop), alternating run by run, in one process, with the `@ai-sdk/otel` spans
 * recorded by an in-memory processor. Prints the ratio per model call. Target ≤ 1.1.
 *
 * Run: `node --import tsx bench/ai-sdk-step-overhead.bench.ts`.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import type { AiSdkScenario } from '../lib/contract/ai-sdk-scenario';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS ?? 20);
const MODEL_CALLS = 21;

const result = startBenchResult('ai-sdk-step-overhead');
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

// The AI SDK is imported after the tracer provider is registered, as in the runner.
const [{ registerTelemetry, tool }, { OpenTelemetry }, { runAiSdkCall }, { RunStepper }, { loadScenarios }, { isGenkitScenario }] = await Promise.all([
  import('ai'),
  import('@ai-sdk/otel'),
  import('../lib/runtimes/ai-sdk/run/run-ai-sdk-call'),
  import('../lib/runner/run-stepper'),
  import('../lib/runner/scenario'),
  import('../lib/runtimes/genkit-js/read/genkit-scenario'),
]);
registerTelemetry(new OpenTelemetry());

// The genkit benchmark's script, played by the AI SDK: each tool request becomes a tool call with its ref as the call id.
const loop = (await loadScenarios(path.join(process.cwd(), 'bench', 'fixtures', 'tools', 'scenarios'))).scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === 'bench-loop');
if (!loop) throw new Error('bench/fixtures/tools/scenarios has no bench-loop scenario.');
const scenario = {
  name: 'ai-sdk-bench-loop',
  runtime: 'ai-sdk',
  title: 'AI SDK benchmark loop',
  description: loop.description,
  prompt: loop.prompt,
  tools: ['step'],
  maxSteps: MODEL_CALLS + 1,
  script: loop.script.map((turn) => ({
    ...(turn.text !== undefined ? { text: turn.text } : {}),
    ...(turn.toolRequests ? { toolCalls: turn.toolRequests.map((request) => ({ name: request.name, ref: request.ref ?? request.name, input: request.input })) } : {}),
  })),
} as AiSdkScenario;
// A trivial tool, so the benchmark measures the loop and the hooks, not tool work.
const catalog = {
  tools: { step: tool({ description: 'Returns the next step number.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ({ next: n + 1 }) }) },
  policies: {},
  files: {},
  problems: [],
};

async function runLoop(withHooks: boolean): Promise<number> {
  const stepper = withHooks ? new RunStepper({ kind: 'run' }, { pauseTimeoutMs: 60_000, onPause: () => undefined, onPauseEnded: () => undefined }) : undefined;
  const start = performance.now();
  const result = await runAiSdkCall({ scenario, catalog, stepper, toolTimeoutMs: 30_000 });
  const elapsed = performance.now() - start;
  if (result.outcome?.finishReason !== 'stop' || result.outcome.steps !== MODEL_CALLS) throw new Error(`run ended ${result.outcome?.finishReason ?? result.failure?.message} after ${result.outcome?.steps} steps`);
  exporter.reset();
  return elapsed / MODEL_CALLS;
}

for (let warm = 0; warm < 10; warm++) {
  await runLoop(false);
  await runLoop(true);
}
const bare: number[] = [];
const hooked: number[] = [];
const ratios: number[] = [];
// Runs alternate one by one (bare, hooked, hooked, bare, …): on a shared machine the load
// changes within seconds, and neighbours see the same load. Each pair gives a ratio too.
for (let round = 0; round < ROUNDS * RUNS_PER_ROUND; round++) {
  const order = round % 2 === 0 ? [false, true] : [true, false];
  const times = new Map<boolean, number>();
  for (const withHooks of order) times.set(withHooks, await runLoop(withHooks));
  bare.push(times.get(false)!);
  hooked.push(times.get(true)!);
  ratios.push(times.get(true)! / times.get(false)!);
}
console.log(`AI SDK step hooks in Run mode (no pause taken): ${MODEL_CALLS} model calls per run, ${ROUNDS * RUNS_PER_ROUND} runs each, alternating`);
console.log(`  bare generateText         : ${median(bare).toFixed(3)} ms per model call (median)`);
console.log(`  with Loopscope step hooks : ${median(hooked).toFixed(3)} ms per model call (median)`);
const ratio = median(hooked) / median(bare);
console.log(`  ratio                     : ${ratio.toFixed(3)}× of the medians, ${median(ratios).toFixed(3)}× median of the pairs (target ≤ 1.1)`);
result.write({
  measures: `per model call, the same 20-round loop (${MODEL_CALLS} model calls) in the real generateText on a scripted LanguageModelV4, with Loopscope's AI SDK step hooks in Run mode (wrapped model and tools, no pause taken) vs bare, both with @ai-sdk/otel spans, alternating run by run`,
  numbers: { modelCalls: MODEL_CALLS, runs: ROUNDS * RUNS_PER_ROUND, bareMsPerCall: median(bare), hookedMsPerCall: median(hooked), ratio, medianPairRatio: median(ratios) },
  summary: `${ratio.toFixed(3)}× of the medians, ${median(ratios).toFixed(3)}× median of the pairs (bare ${median(bare).toFixed(3)} ms, with the hooks ${median(hooked).toFixed(3)} ms per model call)`,
  target: 'ratio of the medians ≤ 1.1×',
  met: ratio <= 1.1,
});
