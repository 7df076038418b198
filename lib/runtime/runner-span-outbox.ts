import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { shareRepeatedValues } from '../contract/shared-values';
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
function endedSpanRecord(span: ReadableSpan, owner: SpanOwner | undefined): EndedSpanRecord {
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
 * Tells the server about span starts and span ends over IPC, as they happen. The ends are
 * the runner's only copy of its spans that leaves the process: the server stores them
 * (lib/server/span-write-behind.ts). A runner that dies keeps what it did: what it ended
 * is on the server already, and the server closes the spans that started and never ended.
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
  private ends: { span: ReadableSpan; owner: SpanOwner | undefined }[] = [];
  private scheduled = false;

  constructor(private readonly send: (event: RunnerEvent) => void) {}

  queueStart(event: SpanStartEvent, urgent: boolean): void {
    this.starts.push(event);
    if (urgent) this.flush();
    else this.schedule();
  }

  queueEnd(span: ReadableSpan, owner: SpanOwner | undefined): void {
    this.ends.push({ span, owner });
    this.schedule();
  }

  /**
   * Sends everything queued now, starts and ends in one message: a tool round flushes at
   * every action start, and on two busy cores each IPC write is a chance to be preempted.
   */
  flush(): void {
    if (this.starts.length === 0 && this.ends.length === 0) return;
    const { starts, ends } = this;
    this.starts = [];
    this.ends = [];
    // A long value several spans hold (each turn's generate output, the same final response) is sent once.
    const shared = shareRepeatedValues(ends.map(({ span, owner }) => endedSpanRecord(span, owner)));
    this.send({ type: 'span-events', starts, ends: shared.ends, ...(shared.values ? { values: shared.values } : {}) });
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
