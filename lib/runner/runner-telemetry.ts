import { NodeSDK } from '@opentelemetry/sdk-node';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AnswerLinkProcessor } from './answer-link';
import type { ClosedBy, OpenSpanEnding, RunningTool } from '../runtimes/open-spans';
import type { SpanStartEvent } from './runner-protocol';
import type { SpanOwner } from './runner-span-outbox';
import { SpanLifecycleReporter } from './span-lifecycle-reporter';
import type { SpanStarts } from './span-starts';

export { runContext } from './run-context';

export interface RunnerTelemetry {
  /** Ends the request's still-open spans as failed or stopped, in their runtime's shape (through the SDK: they are reported as ended). */
  closeOpenSpans(requestId: string, close: { ending: OpenSpanEnding; closedBy: ClosedBy }): number;
  /** A tool of the request executing now (not one of `paused`), if any. */
  runningTool(requestId: string, paused?: readonly RunningTool[]): RunningTool | undefined;
  /** The request was reported over while its code still runs: what it starts from now on is not reported. */
  abandon(requestId: string): void;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry for the runner. Every span start and end is reported to the server
 * over IPC (SpanLifecycleReporter → RunnerSpanOutbox) as it happens, and that copy is what
 * the server stores (lib/server/ingest/span-write-behind.ts): the runner has no OTLP exporter.
 * Before, each span left twice — over IPC for crash safety and again over OTLP/HTTP through
 * the server's receiver — and a run was done only after that export's round trip; the
 * second copy cost more than genkit's own work per turn with a fast model (bench/capture-overhead.bench.ts).
 * Apps keep exporting over OTLP/HTTP to `/v1/traces`; the IPC record gives the same span as
 * that export would (lib/contract/ended-span.test.ts compares them).
 * A runtime that would start an SDK of its own on first use is told not to by its engine, before
 * it is imported (genkit: lib/runtimes/genkit-js/run/genkit-engine.ts).
 */
export function startRunnerTelemetry(options: {
  /** What the runner's engines say of their spans' starts, as one (span-starts.ts). */
  spanStarts: SpanStarts;
  onSpanStart: (event: SpanStartEvent, details: { urgent: boolean }) => void;
  onSpanEnd: (span: ReadableSpan, owner: SpanOwner | undefined) => void;
}): RunnerTelemetry {
  const reporter = new SpanLifecycleReporter({ spanStarts: options.spanStarts, onStart: options.onSpanStart, onEnd: options.onSpanEnd });
  const sdk = new NodeSDK({
    serviceName: 'loopscope-runner',
    // The answer link goes on first: a span's links must be set before the reporter sees it end.
    spanProcessors: [new AnswerLinkProcessor(), reporter],
    // No auto-instrumentations: only the runtimes' own spans belong in a run's trace.
    instrumentations: [],
    // No host/process detectors: saved traces get shared in bug reports; they need no
    // host name, host id or command line.
    resourceDetectors: [],
  });
  sdk.start();
  return {
    closeOpenSpans: (requestId, close) => reporter.closeOpenSpans(requestId, close),
    runningTool: (requestId, paused) => reporter.runningTool(requestId, paused),
    abandon: (requestId) => reporter.abandon(requestId),
    shutdown: () => sdk.shutdown(),
  };
}
