/**
 * A child process for bench/runner-process-overhead.bench.ts: bare genkit (the bench loop, spans to an
 * in-memory exporter, as bench/capture-overhead.bench.ts's side A) that answers the runner's
 * `generate` command over IPC like the runner does, so both are driven the same way.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { benchLoopGenkit } from './bench-loop';

disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const { ai, scenario } = await benchLoopGenkit();
const generate = () => ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
await generate(); // warm-up, as the runner warms up before it says ready

process.on('message', (message: { requestId: string; runId: string }) => {
  void generate().then((response) => {
    exporter.reset();
    process.send?.({ type: 'generate-result', requestId: message.requestId, runId: message.runId, traceIds: [], outcome: { finishReason: response.finishReason } });
  });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
