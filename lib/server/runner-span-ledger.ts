import { errorMessage } from '../errors';
import type { EndedSpanRecord, SpanStartEvent } from '../runtime/runner-protocol';
import { closedSpanFromStart } from '../contract/open-span';
import type { Span } from '../trace/span';
import { spanFromEndedRecord } from '../contract/ended-span';

/** What a dead runner leaves of its open spans. */
export interface RunnerRemains {
  /** Spans that started and never ended, closed as failed with the cause. */
  closed: Span[];
  /** Tool spans that were running when the runner died (for the runs' failure messages). */
  runningTools: SpanStartEvent[];
}

const keyOf = (span: { traceId: string; spanId: string }) => span.traceId + span.spanId;

/** True for a start event of a genkit tool span. */
export function isToolStart(event: SpanStartEvent): boolean {
  return event.attributes['genkit:type'] === 'action' && event.attributes['genkit:metadata:subtype'] === 'tool';
}

/**
 * The server's record of one runner's open spans: started, not ended. Normally it empties
 * out within milliseconds; when the runner dies they are closed as failed, so its trace keeps
 * what was running (docs/architecture.md: a tool kills at most its runner, not its trace).
 * Ended spans are not kept here: they go to the store as they arrive (span-write-behind.ts).
 */
export class RunnerSpanLedger {
  private readonly open = new Map<string, SpanStartEvent>();

  recordStarts(events: readonly SpanStartEvent[]): void {
    for (const event of events) if (event.requestId) this.open.set(keyOf(event), event);
  }

  recordEnds(records: readonly EndedSpanRecord[]): void {
    for (const record of records) this.open.delete(keyOf(record));
  }

  /** True while one of the run's tools is executing here. */
  hasRunningTool(runId: string): boolean {
    for (const event of this.open.values()) if (event.runId === runId && isToolStart(event)) return true;
    return false;
  }

  /** The request is over: forgets its open spans (the runner closed them, and reported them ended). */
  endRequest(requestId: string): void {
    for (const [id, event] of this.open) if (event.requestId === requestId) this.open.delete(id);
  }

  /** The runner died at `endTimeUnixNano`: every open span closed as failed with `message`. Empties the ledger. */
  remains(close: { endTimeUnixNano: string; message: string }): RunnerRemains {
    const runningTools = [...this.open.values()].filter(isToolStart);
    const closed = [...this.open.values()].map((event) => closedSpanFromStart(event, { ...close, closedBy: 'runner-died' }));
    this.open.clear();
    return { closed, runningTools };
  }
}

/** The spans of the runner's records; a record that cannot be read is reported, never fatal. */
export function spansFromEndedRecords(records: readonly EndedSpanRecord[]): Span[] {
  const spans: Span[] = [];
  for (const record of records) {
    try {
      spans.push(spanFromEndedRecord(record));
    } catch (error) {
      console.error(`loopscope: a span the runner reported (${record.traceId}:${record.spanId}) could not be read: ${errorMessage(error)}`);
    }
  }
  return spans;
}
