import { errorMessage } from '../errors';
import type { EndedSpanRecord, SpanStartEvent } from '../runtime/runner-protocol';
import { closedSpanFromStart } from '../contract/open-span';
import type { Span } from '../trace/span';
import { spanFromEndedRecord } from '../contract/ended-span';

interface EndedSpan {
  record: EndedSpanRecord;
  /** Roughly how much memory it holds (its string attributes). */
  bytes: number;
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

/** Above this much waiting for acknowledgement, the oldest copies are dropped (a receiver that never answers). */
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

function sizeOf(record: EndedSpanRecord): number {
  let bytes = 500;
  for (const value of Object.values(record.attributes ?? {})) if (typeof value === 'string') bytes += value.length;
  return bytes;
}

const keyOf = (span: { traceId: string; spanId: string }) => span.traceId + span.spanId;

/** True for a start event of a genkit tool span. */
export function isToolStart(event: SpanStartEvent): boolean {
  return event.attributes['genkit:type'] === 'action' && event.attributes['genkit:metadata:subtype'] === 'tool';
}

/**
 * The server's record of one runner's spans between start and safe storage: spans that
 * started and have not ended, and spans that ended but whose OTLP export has not been
 * acknowledged. Normally both empty out within milliseconds; when the runner dies they are
 * what survives of its runs (docs/architecture.md: a tool kills at most its runner, not its trace).
 */
export class RunnerSpanLedger {
  private readonly open = new Map<string, SpanStartEvent>();
  private readonly ended = new Map<string, EndedSpan>();
  private waitingBytes = 0;
  /** Copies dropped past MAX_WAITING_BYTES (the first drop is logged). */
  dropped = 0;

  recordStarts(events: readonly SpanStartEvent[]): void {
    for (const event of events) if (event.requestId) this.open.set(keyOf(event), event);
  }

  recordEnds(records: readonly EndedSpanRecord[]): void {
    for (const record of records) {
      const id = keyOf(record);
      this.open.delete(id);
      if (this.ended.has(id)) continue;
      const entry = { record, bytes: sizeOf(record) };
      this.ended.set(id, entry);
      this.waitingBytes += entry.bytes;
    }
    while (this.waitingBytes > MAX_WAITING_BYTES && this.ended.size > 0) {
      const [oldestId, oldest] = this.ended.entries().next().value as [string, EndedSpan];
      this.ended.delete(oldestId);
      this.waitingBytes -= oldest.bytes;
      if (this.dropped === 0) console.error('loopscope: a runner has more than 64 MiB of spans that its OTLP export never acknowledged; the oldest copies are dropped.');
      this.dropped += 1;
    }
  }

  /** The receiver stored these spans (`traceId + spanId` each): the copies are no longer needed. */
  markExported(keys: readonly string[]): void {
    for (const id of keys) {
      const entry = this.ended.get(id);
      if (!entry) continue;
      this.ended.delete(id);
      this.waitingBytes -= entry.bytes;
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
      if (entry.record.requestId !== requestId) continue;
      entries.push(entry);
      this.ended.delete(id);
      this.waitingBytes -= entry.bytes;
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
}

/** The spans of the records; a record that cannot be read is reported, never fatal. */
function decodeEntries(entries: readonly EndedSpan[]): Span[] {
  const spans: Span[] = [];
  for (const { record } of entries) {
    try {
      spans.push(spanFromEndedRecord(record));
    } catch (error) {
      console.error(`loopscope: a span the runner reported (${record.traceId}:${record.spanId}) could not be read: ${errorMessage(error)}`);
    }
  }
  return spans;
}
