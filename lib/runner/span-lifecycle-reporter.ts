import { SpanStatusCode, type AttributeValue as OtelAttributeValue, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span as SdkSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runContext } from './run-context';
import { CLOSED_BY_ATTRIBUTE } from '../spans/loopscope-attributes';
import type { SpanStartEvent } from './runner-protocol';
import type { SpanOwner } from './runner-span-outbox';
import type { SpanStarts } from './span-starts';
import { openSpanFromStart } from '../contract/open-span';
import { isPaused, openSpanClosing, runningToolOf, type ClosedBy, type OpenSpanEnding, type RunningTool } from '../runtimes/open-spans';

function hrTimeToNanos([seconds, nanos]: [number, number]): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

interface OpenSpan {
  span: SdkSpan;
  event: SpanStartEvent;
}

/**
 * Reports every span start and end of a run at once (the page shows a running tool before
 * its span reaches the receiver; the server keeps what a dying runner did), ties trace ids
 * to the run that made them, and remembers which spans of each request are still open, so
 * that a run that ends with a span its runtime never ended (a tool past its time limit: its
 * promise never settles) can end it, as failed, through the SDK. What a start notice carries is
 * the runtimes' to say (span-starts.ts): the reporter knows none.
 */
export class SpanLifecycleReporter implements SpanProcessor {
  private readonly owners = new WeakMap<object, SpanOwner>();
  /** Open spans by request id, then by span id. */
  private readonly open = new Map<string, Map<string, OpenSpan>>();
  /** Requests reported over while their code still runs (stopped by the user): what they start later is not reported. */
  private readonly abandoned = new Set<string>();
  /** Spans of abandoned requests, never reported. */
  private readonly silenced = new WeakSet<object>();

  constructor(
    private readonly options: {
      /** What a start notice carries and which spans may run tools/ code, by the runner's runtimes (span-starts.ts). */
      spanStarts: SpanStarts;
      onStart: (event: SpanStartEvent, details: { urgent: boolean }) => void;
      /** Every ended span, `owner` undefined for one that started outside a run (it is stored all the same). */
      onEnd: (span: ReadableSpan, owner: SpanOwner | undefined) => void;
    },
  ) {}

  onStart(span: SdkSpan, _parentContext: Context): void {
    const run = runContext.getStore();
    if (!run) return;
    if (this.abandoned.has(run.requestId)) {
      this.silenced.add(span);
      return;
    }
    const spanContext = span.spanContext();
    const starts = this.options.spanStarts;
    const attributes: Record<string, string> = {};
    for (const key of starts.attributes) {
      const value = span.attributes[key];
      if (value !== undefined) attributes[key] = String(value);
    }
    starts.atStart?.(attributes, span.name);
    run.traceIds.add(spanContext.traceId);
    const event: SpanStartEvent = {
      runId: run.runId,
      requestId: run.requestId,
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      parentSpanId: span.parentSpanContext?.spanId,
      name: span.name,
      attributes,
      startTimeUnixNano: hrTimeToNanos(span.startTime),
      scope: span.instrumentationScope.version === undefined ? { name: span.instrumentationScope.name } : { name: span.instrumentationScope.name, version: span.instrumentationScope.version },
    };
    const owner = { runId: run.runId, requestId: run.requestId };
    this.owners.set(span, owner);
    let openOfRequest = this.open.get(run.requestId);
    if (!openOfRequest) this.open.set(run.requestId, (openOfRequest = new Map()));
    openOfRequest.set(spanContext.spanId, { span, event });
    this.options.onStart(event, { urgent: starts.runsCode(attributes, span.name) });
  }

  onEnd(span: ReadableSpan): void {
    if (this.silenced.has(span)) return;
    const owner = this.owners.get(span);
    if (owner) {
      const openOfRequest = this.open.get(owner.requestId);
      openOfRequest?.delete(span.spanContext().spanId);
      if (openOfRequest?.size === 0) this.open.delete(owner.requestId);
    }
    // A span outside any run still belongs in the store, as the OTLP exporter used to deliver it.
    this.options.onEnd(span, owner);
  }

  /**
   * A tool of the request executing now (an open span its runtime's dialect reads as one), if
   * any; a tool paused before it runs (`paused`: the AI SDK opens its span first) is not executing.
   */
  runningTool(requestId: string, paused: readonly RunningTool[] = []): RunningTool | undefined {
    for (const { event } of this.open.get(requestId)?.values() ?? []) {
      const tool = runningToolOf(openSpanFromStart(event));
      if (tool && !isPaused(tool, paused)) return tool;
    }
    return undefined;
  }

  /**
   * Ends every span of the request that is still open, as failed or stopped (`ending`), in its
   * runtime's shape (its dialect's closing: lib/loop/open-spans.ts), keeping the attributes
   * known from its start. Returns how many were closed.
   */
  closeOpenSpans(requestId: string, close: { ending: OpenSpanEnding; closedBy: ClosedBy }): number {
    const openOfRequest = this.open.get(requestId);
    if (!openOfRequest) return 0;
    const spans = [...openOfRequest.values()];
    for (const { span, event } of spans) {
      const closing = openSpanClosing({ span: openSpanFromStart(event), ending: close.ending });
      span.setAttributes({ ...event.attributes, ...(closing.attributes as Record<string, OtelAttributeValue>), [CLOSED_BY_ATTRIBUTE]: close.closedBy });
      span.setStatus({ code: SpanStatusCode.ERROR, message: closing.status.message });
      span.end();
    }
    this.open.delete(requestId);
    return spans.length;
  }

  /**
   * The request was reported over while its code still runs (the user stopped it during a tool
   * that never looks at the abort): spans it starts from now on are not reported — the run's
   * trace ends where Stop ended it. The runner is replaced soon after (lib/server/runners/runner-process.ts).
   */
  abandon(requestId: string): void {
    this.abandoned.add(requestId);
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
