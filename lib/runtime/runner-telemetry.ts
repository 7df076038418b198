import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type ReadableSpan, type Span as SdkSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { AnswerLinkProcessor } from './answer-link';
import type { SpanStartEvent } from './runner-protocol';

/** Which run (and request) the code currently executing belongs to. */
export const runContext = new AsyncLocalStorage<{ runId: string; requestId: string; traceIds: Set<string> }>();

const START_ATTRIBUTES = ['genkit:type', 'genkit:metadata:subtype', 'genkit:name', 'genkit:path', 'genkit:metadata:resumed'];

function hrTimeToNanos([seconds, nanos]: [number, number]): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

/**
 * Reports every span start at once, so the page can show a running tool before its span
 * ends and reaches the receiver. Also ties trace ids to the run that made them.
 */
class SpanStartReporter implements SpanProcessor {
  constructor(private readonly report: (event: SpanStartEvent, isNewTrace: boolean) => void) {}

  onStart(span: SdkSpan, _parentContext: Context): void {
    const run = runContext.getStore();
    if (!run) return;
    const spanContext = span.spanContext();
    const attributes: Record<string, string> = {};
    for (const key of START_ATTRIBUTES) {
      const value = span.attributes[key];
      if (value !== undefined) attributes[key] = String(value);
    }
    const isNewTrace = !run.traceIds.has(spanContext.traceId);
    run.traceIds.add(spanContext.traceId);
    this.report(
      {
        runId: run.runId,
        traceId: spanContext.traceId,
        spanId: spanContext.spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        name: span.name,
        attributes,
        startTimeUnixNano: hrTimeToNanos(span.startTime),
      },
      isNewTrace,
    );
  }
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

export interface RunnerTelemetry {
  /** Exports every ended span now; resolves once the receiver answered. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry for the runner: genkit's spans leave through the OTLP/HTTP JSON
 * exporter to the server's receiver, the same door any other app uses.
 *
 * Batching matters: a SimpleSpanProcessor in front of the OTLP exporter sends one request
 * per span and silently drops spans once ~30 exports are in flight (INTERRUPT-MODEL.md §5).
 * The batch delay is short so the page sees spans within tens of milliseconds.
 */
export function startRunnerTelemetry(options: {
  endpoint: string;
  token?: string;
  onSpanStart: (event: SpanStartEvent, isNewTrace: boolean) => void;
}): RunnerTelemetry {
  // Genkit would otherwise start its own SDK (an older OTel generation) on first use.
  disableGenkitOTelInitialization();
  const exporter = new OTLPTraceExporter({
    url: options.endpoint,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    timeoutMillis: 10_000,
  });
  const batch = new BatchSpanProcessor(exporter, {
    scheduledDelayMillis: 15,
    maxExportBatchSize: 512,
    maxQueueSize: 65_536,
  });
  const sdk = new NodeSDK({
    serviceName: 'loopscope-runner',
    // The answer link goes on first: a span's links must be set before any exporter sees it.
    spanProcessors: [new AnswerLinkProcessor(), new SpanStartReporter(options.onSpanStart), batch],
    // No auto-instrumentations: only genkit's own spans belong in a run's trace.
    instrumentations: [],
    // No host/process detectors: saved traces get shared in bug reports; they need no
    // host name, host id or command line.
    resourceDetectors: [],
  });
  sdk.start();
  return {
    flush: () => batch.forceFlush(),
    shutdown: () => sdk.shutdown(),
  };
}
