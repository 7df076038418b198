import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { AnswerLinkProcessor } from './answer-link';
import type { SpanStartEvent } from './runner-protocol';
import type { SpanOwner } from './runner-span-outbox';
import { SpanLifecycleReporter } from './span-lifecycle-reporter';

export { runContext } from './run-context';

type ExportResultCallback = Parameters<SpanExporter['export']>[1];
/** ExportResultCode.SUCCESS of @opentelemetry/core (not a direct dependency). */
const EXPORT_SUCCESS = 0;

/** Reports each batch the receiver accepted, so the server can forget its IPC copy of those spans. */
class AcknowledgingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly onExported: (spans: ReadableSpan[]) => void,
  ) {}

  export(spans: ReadableSpan[], resultCallback: ExportResultCallback): void {
    this.inner.export(spans, (result) => {
      if (result.code === EXPORT_SUCCESS) this.onExported(spans);
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export interface RunnerTelemetry {
  /** Exports every ended span now; resolves once the receiver answered. */
  flush(): Promise<void>;
  /** Ends the request's still-open spans as failed with `message` (through the SDK: they are exported). */
  closeOpenSpans(requestId: string, message: string): number;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry for the runner: genkit's spans leave through the OTLP/HTTP JSON
 * exporter to the server's receiver, the same door any other app uses.
 *
 * Batching matters: a SimpleSpanProcessor in front of the OTLP exporter sends one request
 * per span and silently drops spans once ~30 exports are in flight (docs/interrupt-model.md §5).
 * The batch delay is short so the page sees spans within tens of milliseconds.
 */
export function startRunnerTelemetry(options: {
  endpoint: string;
  token?: string;
  onSpanStart: (event: SpanStartEvent, details: { isNewTrace: boolean; urgent: boolean }) => void;
  onSpanEnd: (span: ReadableSpan, owner: SpanOwner) => void;
  onExported: (spans: ReadableSpan[]) => void;
}): RunnerTelemetry {
  // Genkit would otherwise start its own SDK (an older OTel generation) on first use.
  disableGenkitOTelInitialization();
  const exporter = new OTLPTraceExporter({
    url: options.endpoint,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    timeoutMillis: 10_000,
  });
  const batch = new BatchSpanProcessor(new AcknowledgingExporter(exporter, options.onExported), {
    scheduledDelayMillis: 15,
    maxExportBatchSize: 512,
    maxQueueSize: 65_536,
  });
  const reporter = new SpanLifecycleReporter({ onStart: options.onSpanStart, onEnd: options.onSpanEnd });
  const sdk = new NodeSDK({
    serviceName: 'loopscope-runner',
    // The answer link goes on first: a span's links must be set before any exporter sees it.
    spanProcessors: [new AnswerLinkProcessor(), reporter, batch],
    // No auto-instrumentations: only genkit's own spans belong in a run's trace.
    instrumentations: [],
    // No host/process detectors: saved traces get shared in bug reports; they need no
    // host name, host id or command line.
    resourceDetectors: [],
  });
  sdk.start();
  return {
    flush: () => batch.forceFlush(),
    closeOpenSpans: (requestId, message) => reporter.closeOpenSpans(requestId, message),
    shutdown: () => sdk.shutdown(),
  };
}
