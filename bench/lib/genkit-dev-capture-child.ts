/**
 * A child process for bench/capture-overhead.bench.ts: the bench loop with genkit's own capture, the
 * one the Genkit Dev UI reads. `genkit start` runs an app with GENKIT_ENV=dev and
 * GENKIT_TELEMETRY_SERVER set; genkit then exports every span as it ends (its SimpleSpanProcessor
 * and TraceServerExporter: one POST of the span to the telemetry server's /api/traces) into
 * `@genkit-ai/telemetry-server`, which answers once the span is in its trace file. Started by the
 * benchmark with those variables set and its cwd in a temporary folder (the dev mode's
 * reflection server writes its runtime file under the nearest package.json's folder).
 *
 * A run is done when its generate has returned and every span POST it made was answered: then
 * all its spans are stored where the Dev UI reads them (as Loopscope's run is done once its
 * spans are handed to the store). The POSTs are counted by wrapping `fetch`, which genkit's
 * exporter calls for each one; nothing else is changed. Commands over IPC:
 * `{ type: 'block', runs }` runs that many generates one after another and answers with each
 * one's time (ms); `{ type: 'traces' }` answers with the trace ids posted so far.
 */
import { performance } from 'node:perf_hooks';

const projectDir = process.env.BENCH_PROJECT_DIR;
const telemetryServer = process.env.GENKIT_TELEMETRY_SERVER;
if (!projectDir || !telemetryServer || process.env.GENKIT_ENV !== 'dev') throw new Error('bench: set BENCH_PROJECT_DIR, GENKIT_TELEMETRY_SERVER and GENKIT_ENV=dev');

let inFlight = 0;
let settled: (() => void) | undefined;
/** A POST that failed or was refused: the run's spans did not all arrive. */
let failure: string | undefined;
const traceIds = new Set<string>();
const tracesUrl = `${telemetryServer}/api/traces`;
const originalFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  if (String(input) !== tracesUrl) return originalFetch(input, init);
  inFlight += 1;
  // The exporter's body is `{"traceId":"<32 hex>",…}`: the id is read without parsing it.
  if (typeof init?.body === 'string') traceIds.add(init.body.slice(12, 44));
  return originalFetch(input, init)
    .then((response) => {
      if (!response.ok) failure ??= `the telemetry server answered ${response.status}`;
      return response;
    })
    .catch((error: unknown) => {
      failure ??= `a span POST failed: ${error instanceof Error ? error.message : String(error)}`;
      throw error;
    })
    .finally(() => {
      inFlight -= 1;
      if (inFlight === 0) settled?.();
    });
};

const { benchLoopGenkit } = await import('./bench-loop');
const { ai, scenario } = await benchLoopGenkit(projectDir);
const generate = () => ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });

/** Resolves once no span POST is in flight. */
const allAnswered = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (settled = resolve)));

async function run(): Promise<number> {
  const start = performance.now();
  const response = await generate();
  await allAnswered();
  const elapsed = performance.now() - start;
  if (response.finishReason !== 'stop') throw new Error(`a run ended with ${response.finishReason}`);
  if (failure) throw new Error(failure);
  return elapsed;
}

await run(); // warm-up, as the runner warms up before it says ready
traceIds.clear();

process.on('message', (message: { type: 'block'; runs: number } | { type: 'traces' }) => {
  if (message.type === 'traces') {
    process.send?.({ type: 'traces', traceIds: [...traceIds] });
    return;
  }
  void (async () => {
    const runMs: number[] = [];
    for (let index = 0; index < message.runs; index++) runMs.push(await run());
    process.send?.({ type: 'block', runMs });
  })().catch((error: unknown) => process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
