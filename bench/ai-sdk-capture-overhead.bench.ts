/**
 * Benchmark (not a test): what Loopscope's capture costs per model call of an AI SDK loop.
 *
 * Side by side in one run, on the same 20-round AI SDK scenario (21 model calls, 20 tool runs):
 *  A. bare AI SDK in this process: the real `generateText` on the same scripted
 *     `LanguageModelV4` and tools, `@ai-sdk/otel`'s `OpenTelemetry` integration exporting to an
 *     in-memory span exporter;
 *  B. Loopscope: POST /api/runs to a production server; the runner runs the same call, its
 *     spans go over IPC to the server, which stores them, and the run is reported done (on the
 *     event stream) once every span is in the store's queue (any read after that sees them).
 * Prints time per model call for both and the ratio, and the CPU the server and runners spent.
 *
 * Needs a production build (`npm run build`). Run: `npm run bench`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { postJson, runnersSettled, startBenchServer, watchRuns } from './lib/bench-server';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 4792);
const TOKEN = 'bench-token';
const toolsDir = path.join(process.cwd(), 'bench', 'fixtures', 'tools');
const SCENARIO = 'ai-sdk-bench-loop';
const MODEL_CALLS = 21;
/** invoke_agent, then per step `step N` and `chat`, and 20 `execute_tool`. */
const SPANS_PER_RUN = 1 + 2 * MODEL_CALLS + 20;

async function bareAiSdk(): Promise<number[]> {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  // The AI SDK pieces after the provider, as in the runner.
  const [{ registerTelemetry }, { OpenTelemetry }, { loadScenarios }, { loadAiSdkTools }, { runAiSdkCall }] = await Promise.all([
    import('ai'),
    import('@ai-sdk/otel'),
    import('../lib/runner/scenario'),
    import('../lib/runtimes/ai-sdk/run/load-ai-sdk-tools'),
    import('../lib/runtimes/ai-sdk/run/run-ai-sdk-call'),
  ]);
  registerTelemetry(new OpenTelemetry());
  const catalog = await loadAiSdkTools(path.join(toolsDir, 'ai-sdk'));
  const scenario = (await loadScenarios(path.join(toolsDir, 'scenarios'))).scenarios.find((candidate) => candidate.name === SCENARIO);
  if (!scenario || scenario.runtime !== 'ai-sdk') throw new Error(`bench: no AI SDK scenario ${SCENARIO}`);
  const call = async () => {
    const { outcome, failure } = await runAiSdkCall({ scenario, catalog });
    if (failure || outcome?.finishReason !== 'stop' || outcome.steps !== MODEL_CALLS) throw new Error(`bench: the bare AI SDK run ended ${failure?.message ?? `${outcome?.finishReason} after ${outcome?.steps} steps`}`);
  };
  await call(); // warm-up
  exporter.reset();
  const perCall: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const start = performance.now();
    await call();
    perCall.push((performance.now() - start) / MODEL_CALLS);
  }
  const spans = exporter.getFinishedSpans().length;
  if (spans !== ITERATIONS * SPANS_PER_RUN) throw new Error(`bench: the bare AI SDK runs recorded ${spans} spans, expected ${ITERATIONS * SPANS_PER_RUN}`);
  return perCall;
}

/** B: the same call through Loopscope, done when the event stream says so; also counts the spans the store got. */
async function loopscopeRuns(): Promise<{ perCall: number[]; spans: number }> {
  const watcher = watchRuns({ port: PORT, token: TOKEN });
  await watcher.ready;
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const runIds: string[] = [];
  const runOnce = async () => {
    const start = performance.now();
    const { run } = await postJson<{ run: { runId: string } }>({ port: PORT, token: TOKEN, path: '/api/runs', body: { scenario: SCENARIO } });
    const status = await watcher.whenFinished(run.runId);
    if (status !== 'finished') throw new Error(`bench: the Loopscope run ended ${status}`);
    runIds.push(run.runId);
    return performance.now() - start;
  };
  await runOnce(); // warm-up
  const perCall: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) perCall.push((await runOnce()) / MODEL_CALLS);
  watcher.close();
  let spans = 0;
  for (const runId of runIds.slice(1)) {
    const graph = (await (await fetch(`http://127.0.0.1:${PORT}/api/runs/${runId}/graph`, { headers })).json()) as { graph: { summary: { modelCalls: number; toolCalls: number } } };
    spans += graph.graph.summary.modelCalls + graph.graph.summary.toolCalls;
  }
  return { perCall, spans };
}

async function main() {
  if (!existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
    console.error('bench: no production build; run `npm run build` first.');
    process.exit(2);
  }
  const result = startBenchResult('ai-sdk-capture-overhead');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-bench-ai-sdk-'));
  try {
    console.log(`AI SDK capture overhead: scenario ${SCENARIO} (${MODEL_CALLS} model calls, 20 tool runs), ${ITERATIONS} runs each, side by side`);
    const bare = await bareAiSdk();
    const server = await startBenchServer({ port: PORT, token: TOKEN, dataDir, toolsDir });
    let captured: { perCall: number[]; spans: number };
    try {
      if (!process.env.BENCH_NO_SETTLE) await runnersSettled({ port: PORT, token: TOKEN });
      captured = await loopscopeRuns();
    } finally {
      server.kill('SIGTERM');
    }
    const bareMedian = median(bare);
    const loopscopeMedian = median(captured.perCall);
    console.log(`  bare AI SDK + in-memory spans : ${bareMedian.toFixed(3)} ms per model call (median)`);
    console.log(`  Loopscope runner+capture+store: ${loopscopeMedian.toFixed(3)} ms per model call (median)`);
    console.log(`  ratio                         : ${(loopscopeMedian / bareMedian).toFixed(2)}×`);
    const expected = ITERATIONS * (MODEL_CALLS + 20);
    if (captured.spans !== expected) console.log(`  WARNING: the stored graphs hold ${captured.spans} model and tool calls, expected ${expected}`);
    const ratio = loopscopeMedian / bareMedian;
    result.write({
      measures: `per model call, a 20-round AI SDK loop (${MODEL_CALLS} model calls; real generateText, scripted LanguageModelV4) through Loopscope (runner, capture, store, done when the event stream says so) vs the same call in bare AI SDK with @ai-sdk/otel exporting to an in-memory exporter`,
      numbers: { modelCalls: MODEL_CALLS, runsEach: ITERATIONS, bareMsPerCall: bareMedian, loopscopeMsPerCall: loopscopeMedian, ratio, storedCalls: captured.spans, expectedStoredCalls: expected },
      summary: `${ratio.toFixed(2)}× (bare ${bareMedian.toFixed(3)} ms, through Loopscope ${loopscopeMedian.toFixed(3)} ms per model call)${captured.spans !== expected ? `; the stored graphs held ${captured.spans} calls, expected ${expected}` : ''}`,
      target: null,
      met: null,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
