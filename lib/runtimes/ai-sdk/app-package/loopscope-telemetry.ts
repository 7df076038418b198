/**
 * The one line that sends an AI SDK app's spans to Loopscope and makes its calls runs there:
 *
 * ```ts
 * import { loopscopeTelemetry } from 'loopscope/ai-sdk';
 * loopscopeTelemetry();
 * ```
 *
 * It registers two AI SDK telemetry integrations (`registerTelemetry`, global for every
 * `generateText` / `streamText` that names no integrations of its own): Loopscope's (app-calls.ts:
 * each call a run, stepped by `loopscopeStep()`), then @ai-sdk/otel's `OpenTelemetry` on a tracer
 * provider of its own — a batch span processor and an OTLP/HTTP exporter to Loopscope's
 * `/v1/traces` — so the app's own OpenTelemetry setup, if it has one, is left as it is. Without a
 * context manager the SDK cannot make a model call's span the active one (the step marks land on
 * it): one is registered unless the app already has one.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetry } from '@ai-sdk/otel';
import { registerTelemetry } from 'ai';
import { AiSdkHelloResponseSchema } from '../../../contract/attach-ai-sdk';
import { AppConnection, type AppConnectionOptions } from './app-connection';
import { AppCalls } from './app-calls';
import { AppSpanRecorder } from './app-span-recorder';

/** How long an ended span waits before it is exported: short, so the run page draws it as it happens. */
const EXPORT_DELAY_MS = 100;
/**
 * How long one export may take, retries included (the exporter's default is 10 s): Loopscope is
 * on this machine, and a script whose Loopscope is not running would wait that long at its exit.
 */
const EXPORT_TIMEOUT_MS = 2_000;

export type LoopscopeTelemetryOptions = AppConnectionOptions;

/** What `loopscopeTelemetry()` set up. */
export interface LoopscopeTelemetry {
  /** Loopscope's URL the spans and runs go to. */
  readonly url: string;
  /** The app's name on Loopscope's Apps page. */
  readonly appName: string;
  /** Whether the app may make its calls runs (it has an app secret or Loopscope's token). */
  readonly connected: boolean;
  /** Exports the spans that ended and waits until every ended call was told to Loopscope. */
  flush(): Promise<void>;
  /** Flushes, then stops the exporter (the process is about to end). */
  shutdown(): Promise<void>;
  /** @internal What the other exports of the package read. */
  readonly calls: AppCalls;
}

let installed: LoopscopeTelemetry | undefined;

/** The telemetry `loopscopeTelemetry()` set up in this process, if it was called. */
export function installedTelemetry(): LoopscopeTelemetry | undefined {
  return installed;
}

/**
 * Sends the app's AI SDK spans to Loopscope and lets Loopscope run and step its calls. Call it
 * once, before the first call (a second call returns the first's setup). Reads LOOPSCOPE_URL,
 * LOOPSCOPE_APP_SECRET (set by `loopscope start -- <cmd>`), LOOPSCOPE_TOKEN, LOOPSCOPE_APP_NAME
 * unless `options` say otherwise (lib/contract/attach-ai-sdk.ts).
 */
export function loopscopeTelemetry(options: LoopscopeTelemetryOptions = {}): LoopscopeTelemetry {
  if (installed) return installed;
  const connection = new AppConnection(options);
  // Fails (and leaves the app's own) when the app registered a context manager already.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const recorder = new AppSpanRecorder();
  const batch = new BatchSpanProcessor(new OTLPTraceExporter({ url: connection.tracesUrl, timeoutMillis: EXPORT_TIMEOUT_MS }), { scheduledDelayMillis: EXPORT_DELAY_MS });
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': connection.app.name }), spanProcessors: [recorder, batch] });
  const calls = new AppCalls({ connection, recorder, flushSpans: () => batch.forceFlush() });
  // Loopscope's first: its onStart must see the call before @ai-sdk/otel starts the call's root span.
  registerTelemetry(calls, new OpenTelemetry({ tracer: provider.getTracer('gen_ai'), enrichSpan: calls.enrichSpan }));
  const flush = async () => {
    await calls.flush();
    await batch.forceFlush();
  };
  installed = {
    url: connection.url,
    appName: connection.app.name,
    connected: connection.credential !== undefined,
    flush,
    shutdown: async () => {
      await flush();
      await provider.shutdown();
    },
    calls,
  };
  // A script's last call is told before the process ends. beforeExit comes again after the flush's
  // work: only a flush with something to send keeps the process going.
  process.on('beforeExit', () => {
    if (recorder.takeEnded() || calls.pending()) void flush();
  });
  if (connection.credential) {
    // The app appears on the Apps page before its first call, so its mode can be chosen first.
    void connection.post({ op: 'hello', body: { app: connection.app }, schema: AiSdkHelloResponseSchema, token: connection.credential }).catch((error: unknown) => connection.sayFailure('hello', error));
  }
  return installed;
}
