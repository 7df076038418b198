import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EndedSpanRecord, RunnerEvent, SpanStartEvent, SpoolRange, SpoolRead } from './runner-protocol';
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
 * here, 0.7 ms of a 62-span run (bench/capture-overhead.bench.ts).
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
 * Spooled bytes that are announced without waiting for the tick's message: a fast loop never
 * yields to it, and past this much the server reads and decodes them while the loop goes on
 * instead of after it (a 21-turn run's ~250 KB of spans: bench/capture-overhead.bench.ts).
 */
const ANNOUNCE_SPOOLED_BYTES = 64 * 1024;

/**
 * Tells the server about span starts and span ends. The ends are the runner's only copy of
 * its spans that leaves the process: the server stores them (lib/server/ingest/span-write-behind.ts).
 * A runner that dies keeps what it did: what it ended is on the server or in its spool
 * already, and the server closes the spans that started and never ended.
 *
 * With a spool (the runner's, lib/runner/span-batch-frames.ts), every batch is encoded once
 * and appended to the file, and a small IPC message announces the new frames by their byte
 * range; the server reads them from the file. When a span that may run code from tools/
 * starts (a tool, or a model that is not Loopscope's own: span-starts.ts), what is
 * queued is appended at once, before that code runs: a tool that then calls process.exit or
 * loops forever never gives the event loop back, and the server reads what the dead runner
 * left in the file. Everything else waits for the tick's flush, where events of one tick
 * go in one batch (a turn starts and ends several spans at once) and one message. Spans
 * through the file instead of the pipe: the pipe's 64 KiB buffer made each run's last
 * ~180 KB message wait for the server to read it in parts, ≈1.2 ms a run
 * (bench/capture-overhead.bench.ts). The file is emptied once the server says it has read all of
 * it (`serverRead`, on its next command).
 *
 * Without a spool, or for a batch the spool cannot take (disk full, a value V8 cannot encode),
 * the events go in the message itself, behind the range (they are newer), and at once. What
 * is still queued when the process exits is flushed from the `exit` handler.
 */
export class RunnerSpanOutbox {
  private starts: SpanStartEvent[] = [];
  private ends: EndedSpanRecord[] = [];
  /** Where the spool's frames that no message announced yet begin (bytes). */
  private announcedTo = 0;
  /** How many times the spool was emptied: its byte offsets count from there. */
  private epoch = 0;
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
   * Sends everything queued now, in one message: the spool's new frames by their range, and
   * what the spool could not take. `then`: an event that goes behind them in the same message
   * (a request's result, a pause), or alone when there is nothing to send.
   */
  flush(then?: RunnerEvent): void {
    this.spoolQueued();
    this.sendNow(then);
  }

  /**
   * The server has read the spool up to `read` (it says so with its commands): when that is
   * all of the file, it is emptied and a new epoch starts.
   */
  serverRead(read: SpoolRead | undefined): void {
    if (!this.spool || !read || read.epoch !== this.epoch || read.bytes === 0 || read.bytes !== this.spool.size()) return;
    this.spool.clear();
    this.epoch += 1;
    this.announcedTo = 0;
  }

  /** Appends what is queued to the spool as one frame. False when there is no spool or it could not take the batch (it stays queued). */
  private spoolQueued(): boolean {
    if (!this.spool) return false;
    if (this.starts.length === 0 && this.ends.length === 0) return true;
    try {
      this.spool.write(encodeSpanBatch({ starts: this.starts, ends: this.ends }));
    } catch {
      // A spool that cannot be written (disk full), or a value V8 cannot encode: the batch goes
      // in the message (lib/runner/send-cloneable.ts sends such a value as JSON would).
      return false;
    }
    this.starts = [];
    this.ends = [];
    return true;
  }

  /** One message: the spool's frames not announced yet, then what is still queued, then `then`. */
  private sendNow(then?: RunnerEvent): void {
    const end = this.spool?.size() ?? 0;
    const spooled: SpoolRange | undefined = end > this.announcedTo ? { epoch: this.epoch, offset: this.announcedTo, length: end - this.announcedTo } : undefined;
    if (!spooled && this.starts.length === 0 && this.ends.length === 0) {
      if (then) this.send(then);
      return;
    }
    const { starts, ends } = this;
    this.starts = [];
    this.ends = [];
    this.announcedTo = end;
    this.send({ type: 'span-events', starts, ends, ...(spooled ? { spooled } : {}), ...(then ? { then } : {}) });
  }

  /** What is queued leaves the process now: into the spool (announced at the tick, or now past a pipe's buffer), else over IPC at once. */
  private secure(): void {
    if (!this.spoolQueued()) {
      this.sendNow();
      return;
    }
    if (this.spool!.size() - this.announcedTo >= ANNOUNCE_SPOOLED_BYTES) this.sendNow();
    else this.schedule();
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
