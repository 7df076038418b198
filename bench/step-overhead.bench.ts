/**
 * Benchmark (not a test): the cost of the step hooks when no pause is taken. The same
 * 20-round loop runs in bare genkit, and with Loopscope's step middleware installed in Run
 * mode, alternating, in one process. Prints the ratio per model turn. Target ≤ 1.1.
 *
 * Run: `node --import tsx bench/step-overhead.bench.ts`.
 */
import { performance } from 'node:perf_hooks';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { benchLoopGenkit } from './lib/bench-loop';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS ?? 20);
const MODEL_TURNS = 21;

const result = startBenchResult('step-overhead');
disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const { RunStepper } = await import('../lib/runner/run-stepper');
const { stepMiddleware, defineHandWrittenModel } = await import('../lib/runtimes/genkit-js/run/genkit-step-middleware');

const { ai, scenario } = await benchLoopGenkit();
defineHandWrittenModel(ai);

async function runLoop(withHooks: boolean): Promise<number> {
  const stepper = withHooks ? new RunStepper({ kind: 'run' }, { pauseTimeoutMs: 60_000, onPause: () => undefined, onPauseEnded: () => undefined }) : undefined;
  const start = performance.now();
  const response = await ai.generate({
    model: `scripted/${scenario.name}`,
    prompt: scenario.prompt,
    tools: scenario.tools,
    maxTurns: scenario.maxTurns,
    ...(stepper ? { use: [stepMiddleware(ai, stepper)()], abortSignal: stepper.abort.signal } : {}),
  });
  if (response.finishReason !== 'stop') throw new Error(`run ended ${response.finishReason}`);
  exporter.reset();
  return (performance.now() - start) / MODEL_TURNS;
}

for (let warm = 0; warm < 10; warm++) {
  await runLoop(false);
  await runLoop(true);
}
const bare: number[] = [];
const hooked: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always gets the warmer machine.
  for (const withHooks of round % 2 === 0 ? [false, true] : [true, false]) {
    let total = 0;
    for (let run = 0; run < RUNS_PER_ROUND; run++) total += await runLoop(withHooks);
    (withHooks ? hooked : bare).push(total / RUNS_PER_ROUND);
  }
}
console.log(`step hooks in Run mode (no pause taken): ${MODEL_TURNS} model turns per run, ${ROUNDS}×${RUNS_PER_ROUND} runs each`);
console.log(`  bare genkit               : ${median(bare).toFixed(3)} ms per model turn (median)`);
console.log(`  with Loopscope step hooks : ${median(hooked).toFixed(3)} ms per model turn (median)`);
const ratio = median(hooked) / median(bare);
console.log(`  ratio                     : ${ratio.toFixed(3)}× (target ≤ 1.1)`);
result.write({
  measures: `per model turn, the 20-round genkit loop (${MODEL_TURNS} model turns) with Loopscope's step hooks installed in Run mode (no pause taken) vs bare genkit, alternating in one process`,
  numbers: { modelTurns: MODEL_TURNS, rounds: ROUNDS, runsPerRound: RUNS_PER_ROUND, bareMsPerTurn: median(bare), hookedMsPerTurn: median(hooked), ratio },
  summary: `${ratio.toFixed(3)}× (bare genkit ${median(bare).toFixed(3)} ms, with the step hooks ${median(hooked).toFixed(3)} ms per model turn)`,
  target: 'ratio ≤ 1.1×',
  met: ratio <= 1.1,
});
