/**
 * Benchmark (not a test): replaying a long loop from its recording against running it.
 * The bench-loop scenario (20 tool rounds, 21 model turns) runs in genkit with its scripted
 * model and real tools; its spans are recorded; then the recording is replayed (read the
 * recording from the spans + replay with models answering from it and tools stubbed from it,
 * every request compared). Both sides record spans the same way, alternating, in one process.
 * Prints the ratio replay / original run. Target ≤ 1.5.
 *
 * Run: `node --import tsx bench/replay-vs-run.bench.ts`.
 */
import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { benchLoopGenkit } from './lib/bench-loop';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS ?? 10);

const result = startBenchResult('replay-vs-run');
disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const { decodeOtlpJson } = await import('../lib/spans/otlp-json');
const { readRecording } = await import('../lib/runtimes/genkit-js/replay/read-genkit-recording');
const { replayRecording } = await import('../lib/runtimes/genkit-js/replay/run-replay');

const { ai, scenario } = await benchLoopGenkit();

async function runOriginal(): Promise<number> {
  const start = performance.now();
  const response = await ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
  if (response.finishReason !== 'stop') throw new Error(`run ended ${response.finishReason}`);
  const elapsed = performance.now() - start;
  exporter.reset();
  return elapsed;
}

// One recording of the loop, as Loopscope reads it from a trace file.
await runOriginal();
await ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
const recorded = decodeOtlpJson(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()))));
exporter.reset();

async function runReplay(): Promise<number> {
  const start = performance.now();
  const report = await replayRecording(readRecording(recorded));
  if (!report.matched) throw new Error(`the replay diverged: ${report.divergences[0]?.message}`);
  const elapsed = performance.now() - start;
  exporter.reset();
  return elapsed;
}

for (let warm = 0; warm < 5; warm++) {
  await runOriginal();
  await runReplay();
}
const original: number[] = [];
const replayed: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const which of round % 2 === 0 ? ['original', 'replay'] : ['replay', 'original']) {
    let total = 0;
    for (let run = 0; run < RUNS_PER_ROUND; run++) total += which === 'original' ? await runOriginal() : await runReplay();
    (which === 'original' ? original : replayed).push(total / RUNS_PER_ROUND);
  }
}
console.log(`replay vs original run: bench-loop (${recorded.length} spans, 21 model turns), ${ROUNDS}×${RUNS_PER_ROUND} runs each`);
console.log(`  original run (scripted model, real tools) : ${median(original).toFixed(2)} ms (median)`);
console.log(`  replay (read recording + replay + compare) : ${median(replayed).toFixed(2)} ms (median)`);
const ratio = median(replayed) / median(original);
console.log(`  ratio                                      : ${ratio.toFixed(3)}× (target ≤ 1.5)`);
result.write({
  measures: 'replay of the 20-round bench loop from its recorded spans (read the recording, replay with models and tools answering from it, compare every request) vs running the same scenario (scripted model, real tools), both recording spans the same way, alternating in one process',
  numbers: { spans: recorded.length, modelTurns: 21, rounds: ROUNDS, runsPerRound: RUNS_PER_ROUND, originalMs: median(original), replayMs: median(replayed), ratio },
  summary: `${ratio.toFixed(3)}× (the run ${median(original).toFixed(2)} ms, its replay ${median(replayed).toFixed(2)} ms)`,
  target: 'ratio ≤ 1.5×',
  met: ratio <= 1.5,
});
