import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EndedSpanRecord, RunnerEvent, SpanStartEvent } from './runner-protocol';

/** Which run and request a span belongs to (from the moment it started). */
export interface SpanOwner {
  runId: string;
  requestId: string;
}

/**
 * The ended span as plain data. References, not copies: an ended span no longer changes.
 * (Plain JSON over IPC costs ~1 ms per 20-round run here; the OTLP protobuf serializer cost
 * ~8 ms, more than genkit's own work.)
 */
function endedSpanRecord(span: ReadableSpan, owner: SpanOwner): EndedSpanRecord {
  const context = span.spanContext();
  return {
    ...owner,
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind,
    startTime: span.startTime,
    endTime: span.endTime,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, time: event.time, attributes: event.attributes })),
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId, attributes: link.attributes })),
    status: span.status,
    resource: span.resource.attributes,
    scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version },
  };
}

/**
 * Tells the server about span starts and span ends over IPC, as they happen, so that a
 * runner that dies keeps what it did: the server closes the spans that started and never
 * ended, and stores the ended ones the OTLP exporter had not delivered yet.
 *
 * Events of one tick travel in one message (a turn starts and ends several spans at once).
 * The batch goes out at once, without waiting for the tick, when an action span (a tool or
 * a model: code from tools/) starts: a tool that then calls process.exit or loops forever
 * never gives the event loop back, and its start and the end of the model call before it
 * must already be on their way. What is still queued when the process exits is sent from
 * the `exit` handler: Node writes IPC messages at once while the pipe takes them (checked
 * here: a 200 KB message sent on exit arrives, a 2 MB one does not).
 */
export class RunnerSpanOutbox {
  private starts: SpanStartEvent[] = [];
  private ends: { span: ReadableSpan; owner: SpanOwner }[] = [];
  private scheduled = false;

  constructor(private readonly send: (event: RunnerEvent) => void) {}

  queueStart(event: SpanStartEvent, urgent: boolean): void {
    this.starts.push(event);
    if (urgent) this.flush();
    else this.schedule();
  }

  queueEnd(span: ReadableSpan, owner: SpanOwner): void {
    this.ends.push({ span, owner });
    this.schedule();
  }

  /** The exporter delivered these spans: say so, after every queued event that came before. */
  exported(spans: readonly ReadableSpan[]): void {
    this.flush();
    const keys = spans.map((span) => {
      const context = span.spanContext();
      return context.traceId + context.spanId;
    });
    if (keys.length > 0) this.send({ type: 'spans-exported', keys });
  }

  /** Sends everything queued now. Starts go first: a span can start and end in one tick. */
  flush(): void {
    if (this.starts.length > 0) {
      const spans = this.starts;
      this.starts = [];
      this.send({ type: 'span-starts', spans });
    }
    if (this.ends.length === 0) return;
    const ends = this.ends;
    this.ends = [];
    this.send({ type: 'span-ends', spans: ends.map(({ span, owner }) => endedSpanRecord(span, owner)) });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }
}
