import { errorMessage } from '../errors';
import type { SpanEndKey, SpanStartEvent } from '../runtime/runner-protocol';
import { closedSpanFromStart } from '../trace/open-span';
import { decodeOtlpJson } from '../trace/otlp-json';
import { decodeOtlpProtobuf } from '../trace/otlp-protobuf';
import type { Span } from '../trace/span';

/** One `span-ends` message: the OTLP protobuf of its spans (base64), and how many are not yet exported. */
interface EndBatch {
  otlp: string;
  waiting: number;
}

interface EndedSpan {
  key: SpanEndKey;
  batch: EndBatch;
}

/** What a dead runner leaves: its spans to store and the tools that were running. */
export interface RunnerRemains {
  /** Spans that ended but that the OTLP exporter had not delivered. */
  ended: Span[];
  /** Spans that started and never ended, closed as failed with the cause. */
  closed: Span[];
  /** Tool spans that were running when the runner died (for the runs' failure messages). */
  runningTools: SpanStartEvent[];
}

/** Above this much OTLP waiting for acknowledgement, the oldest copies are dropped (a receiver that never answers). */
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

const keyOf = (span: { traceId: string; spanId: string }) => span.traceId + span.spanId;

/** True for a start event of a genkit tool span. */
export function isToolStart(event: SpanStartEvent): boolean {
  return event.attributes['genkit:type'] === 'action' && event.attributes['genkit:metadata:subtype'] === 'tool';
}

/**
 * The server's record of one runner's spans between start and safe storage: spans that
 * started and have not ended, and spans that ended but whose OTLP export has not been
 * acknowledged. Normally both empty out within milliseconds; when the runner dies they are
 * what survives of its runs (ARCHITECTURE.md: a tool kills at most its runner, not its trace).
 */
export class RunnerSpanLedger {
  private readonly open = new Map<string, SpanStartEvent>();
  private readonly ended = new Map<string, EndedSpan>();
  private waitingBytes = 0;
  /** Spans dropped past MAX_WAITING_BYTES (reported once). */
  dropped = 0;

  recordStarts(events: readonly SpanStartEvent[]): void {
    for (const event of events) if (event.requestId) this.open.set(keyOf(event), event);
  }

  recordEnds(keys: readonly SpanEndKey[], otlp: string): void {
    const batch: EndBatch = { otlp, waiting: 0 };
    for (const key of keys) {
      const id = keyOf(key);
      this.open.delete(id);
      if (this.ended.has(id)) continue;
      this.ended.set(id, { key, batch });
      batch.waiting += 1;
    }
    if (batch.waiting > 0) this.waitingBytes += otlp.length;
    while (this.waitingBytes > MAX_WAITING_BYTES && this.ended.size > 0) {
      const [oldestId, oldest] = this.ended.entries().next().value as [string, EndedSpan];
      this.ended.delete(oldestId);
      this.release(oldest.batch);
      this.dropped += 1;
    }
  }

  /** The receiver stored these spans (`traceId + spanId` each): the copies are no longer needed. */
  markExported(keys: readonly string[]): void {
    for (const id of keys) {
      const entry = this.ended.get(id);
      if (!entry) continue;
      this.ended.delete(id);
      this.release(entry.batch);
    }
  }

  /** True while one of the run's tools is executing here. */
  hasRunningTool(runId: string): boolean {
    for (const event of this.open.values()) if (event.runId === runId && isToolStart(event)) return true;
    return false;
  }

  /**
   * The request is over. Returns its ended spans that were never acknowledged (the export
   * failed: store them from here instead) and forgets its open ones (the runner closed them).
   */
  endRequest(requestId: string): Span[] {
    const entries: EndedSpan[] = [];
    for (const [id, entry] of this.ended) {
      if (entry.key.requestId !== requestId) continue;
      entries.push(entry);
      this.ended.delete(id);
      this.release(entry.batch);
    }
    for (const [id, event] of this.open) if (event.requestId === requestId) this.open.delete(id);
    return decodeEntries(entries);
  }

  /**
   * The runner died at `endTimeUnixNano`: every ended span it had not delivered, and every
   * open span closed as failed with `message`. Empties the ledger.
   */
  remains(close: { endTimeUnixNano: string; message: string }): RunnerRemains {
    const runningTools = [...this.open.values()].filter(isToolStart);
    const closed = [...this.open.values()].map((event) => closedSpanFromStart(event, { ...close, closedBy: 'runner-died' }));
    const ended = decodeEntries([...this.ended.values()]);
    this.open.clear();
    this.ended.clear();
    this.waitingBytes = 0;
    return { ended, closed, runningTools };
  }

  private release(batch: EndBatch): void {
    batch.waiting -= 1;
    if (batch.waiting === 0) this.waitingBytes -= batch.otlp.length;
  }
}

/** Decodes the batches the entries came in and keeps exactly the entries' spans. */
function decodeEntries(entries: readonly EndedSpan[]): Span[] {
  const wanted = new Map<EndBatch, Set<string>>();
  for (const entry of entries) {
    let ids = wanted.get(entry.batch);
    if (!ids) wanted.set(entry.batch, (ids = new Set()));
    ids.add(keyOf(entry.key));
  }
  const spans: Span[] = [];
  for (const [batch, ids] of wanted) {
    try {
      for (const span of decodeOtlpJson(decodeOtlpProtobuf(Buffer.from(batch.otlp, 'base64')))) if (ids.has(keyOf(span))) spans.push(span);
    } catch (error) {
      // The runner wrote these bytes itself; a batch that does not decode is reported, never fatal.
      console.error(`loopscope: ${ids.size} span(s) from a runner could not be read back: ${errorMessage(error)}`);
    }
  }
  return spans;
}
