import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EndedSpanRecord, RunnerEvent, SpanStartEvent } from './runner-protocol';
import { encodeSpanBatch, type SpanSpool } from './span-batch-frames';

/** Which run and request a span belongs to (from the moment it started). */
export interface SpanOwner {
  runId: string;
  requestId: string;
}

/**
 * The ended span as plain data. References, not copies: an ended span no longer changes.
 * (Plain JSON over IPC costs ~1 ms per 20-round run here; the OTLP protobuf serializer cost
 * ~8 ms, more than genkit's own work.) The owner's fields are named, not spread: V8 defines
 * each property that follows a spread in a literal through its slow path, ≈11 µs per span
 * here, 0.7 ms of a 62-span run (bench/capture-overhead.ts).
 */
function endedSpanRecord(span: ReadableSpan, owner: SpanOwner | undefined): EndedSpanRecord {
  const context = span.spanContext();
  return {
    runId: owner?.runId,
    requestId: owner?.requestId,
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
 * Spooled bytes that are sent without waiting for the tick's message: a pipe's buffer (64 KiB
 * on Linux), so the write does not wait for the server. A 21-turn run's ~300 KB of spans went
 * in one message after its loop, and the server spent ≈3 ms reading them while the run waited.
 */
const SEND_SPOOLED_BYTES = 64 * 1024;

/**
 * Tells the server about span starts and span ends over IPC. The ends are the runner's only
 * copy of its spans that leaves the process: the server stores them
 * (lib/server/span-write-behind.ts). A runner that dies keeps what it did: what it ended
 * is on the server already, and the server closes the spans that started and never ended.
 *
 * Events of one tick travel in one message (a turn starts and ends several spans at once).
 * When a span that may run code from tools/ starts (a tool, or a model that is not Loopscope's
 * own: span-lifecycle-reporter.ts), what is queued must be out of the process before that code runs: a tool that then calls process.exit or loops
 * forever never gives the event loop back. With a spool, that batch is encoded once and
 * appended to the spool file at once, and the tick's message carries the same bytes
 * (`spooled`); without one (or when the spool cannot be written) it is sent at once. The
 * spool saves a fast loop a message per tool run, each of which woke the server while the
 * loop ran (a 21-turn run sent 44 before it), and the bytes written once save the run's ~300 KB of attributes a second
 * encoding (as JSON lines before, each batch was written to the spool as JSON and sent again
 * through V8's serializer: bench/capture-overhead.ts). What is still queued when the process
 * exits is sent from the `exit` handler: Node writes IPC messages at once while the pipe takes
 * them (checked here: a 200 KB message sent on exit arrives, a 2 MB one does not).
 */
export class RunnerSpanOutbox {
  private starts: SpanStartEvent[] = [];
  private ends: EndedSpanRecord[] = [];
  /** Batches in the spool already and not sent yet (their frames' payloads), older than `starts` and `ends`. */
  private spooled: Uint8Array[] = [];
  private spooledBytes = 0;
  private scheduled = false;

  constructor(
    private readonly send: (event: RunnerEvent) => void,
    private readonly spool?: SpanSpool,
  ) {}

  queueStart(event: SpanStartEvent, urgent: boolean): void {
    this.starts.push(event);
    if (urgent) this.secure();
    else this.schedule();
  }

  /**
   * Ended spans are read at once (an ended span no longer changes): a spool frame or a message
   * may carry it. A start of the same span still queued is dropped: the end says everything it
   * did (a scripted model's turn starts and ends between two tool runs: 21 of a 21-turn run's
   * 62 starts, each one more object graph to encode here and to decode, track and publish in
   * the server).
   */
  queueEnd(span: ReadableSpan, owner: SpanOwner | undefined): void {
    const record = endedSpanRecord(span, owner);
    this.dropQueuedStart(record.spanId);
    this.ends.push(record);
    this.schedule();
  }

  /**
   * Sends everything queued now, starts and ends in one message: a tool round flushes at
   * every action start, and on two busy cores each IPC write is a chance to be preempted.
   * `then`: an event that goes behind them in the same message (a request's result), or
   * alone when nothing is queued.
   */
  flush(then?: RunnerEvent): void {
    if (this.starts.length === 0 && this.ends.length === 0 && this.spooled.length === 0) {
      if (then) this.send(then);
      return;
    }
    const { starts, ends, spooled } = this;
    this.starts = [];
    this.ends = [];
    this.spooled = [];
    this.spooledBytes = 0;
    // The channel copies long attribute values as they are (V8's serializer): sending a value
    // several spans hold once (each turn's generate output is the run's final response) cost
    // more to find than it saved, 0.55 ms against 0.22 per 62-span run, which it did with JSON.
    this.send({ type: 'span-events', starts, ends, ...(spooled.length > 0 ? { spooled } : {}), ...(then ? { then } : {}) });
  }

  /** The server has every span reported so far (no request in flight): the spool starts empty again. */
  clearSpool(): void {
    this.spool?.clear();
  }

  /** What is queued leaves the process now: into the spool (and the tick's message), else over IPC at once. */
  private secure(): void {
    if (this.spool) {
      try {
        const payload = encodeSpanBatch({ starts: this.starts, ends: this.ends });
        this.spool.write(payload);
        this.spooled.push(payload);
        this.spooledBytes += payload.byteLength;
        this.starts = [];
        this.ends = [];
        // A fast loop never yields to the tick's message: past a pipe's buffer of spans, they
        // go now, and the server reads them while the loop goes on instead of after it.
        if (this.spooledBytes >= SEND_SPOOLED_BYTES) this.flush();
        else this.schedule();
        return;
      } catch {
        // A spool that cannot be written (disk full), or a value V8 cannot encode: the batch
        // goes over IPC at once, as without one (lib/runtime/send-cloneable.ts sends such a value as JSON would).
      }
    }
    this.flush();
  }

  /** Queued starts are few (those since the last batch left): the latest ones are looked at first. */
  private dropQueuedStart(spanId: string): void {
    for (let index = this.starts.length - 1; index >= 0; index--) {
      if (this.starts[index].spanId !== spanId) continue;
      this.starts.splice(index, 1);
      return;
    }
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
