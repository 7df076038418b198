import { errorMessage } from '../../errors';
import type { EndedSpanRecord, SpanStartEvent } from '../../runner/runner-protocol';
import { openSpanFromStart } from '../../contract/open-span';
import { closedSpanFromStart, isPaused, runningToolOf, type RunningTool } from '../../runtimes/open-spans';
import type { Span } from '../../spans/span';
import { spanFromEndedRecord } from '../../contract/ended-span';

/** A tool that was executing in a runner, and the run it belongs to. */
export interface RunningToolOfRun extends RunningTool {
  runId: string;
}

/** What a dead runner leaves of its open spans. */
export interface RunnerRemains {
  /** Spans that started and never ended, closed as failed (or stopped, for a run the user stopped) with the cause. */
  closed: Span[];
  /** Tools that were running when the runner died (for the runs' failure messages). */
  runningTools: RunningToolOfRun[];
}

interface OpenSpan {
  event: SpanStartEvent;
  /** The tool it executes, as its runtime's dialect reads the start (lib/loop/open-spans.ts). */
  tool?: RunningTool;
}

const keyOf = (span: { traceId: string; spanId: string }) => span.traceId + span.spanId;

/**
 * The server's record of one runner's open spans: started, not ended. Normally it empties
 * out within milliseconds; when the runner dies they are closed — as failed, or as stopped for
 * a run the user stopped — in their runtime's shape, so the trace keeps what was running
 * (docs/architecture.md: a tool kills at most its runner, not its trace). Which open span is a
 * tool executing is each runtime's knowledge (its dialect's `runningTool`), read once per start.
 * Ended spans are not kept here: they go to the store as they arrive (span-write-behind.ts).
 */
export class RunnerSpanLedger {
  private readonly open = new Map<string, OpenSpan>();

  recordStarts(events: readonly SpanStartEvent[]): void {
    for (const event of events) {
      if (!event.requestId) continue;
      const tool = runningToolOf(openSpanFromStart(event));
      this.open.set(keyOf(event), tool ? { event, tool } : { event });
    }
  }

  recordEnds(records: readonly EndedSpanRecord[]): void {
    for (const record of records) this.open.delete(keyOf(record));
  }

  /**
   * True while one of the run's tools is executing here (whichever runtime runs it); a tool
   * paused before it runs (`paused`: the AI SDK opens its span first) is not executing.
   */
  hasRunningTool(runId: string, paused: readonly RunningTool[] = []): boolean {
    for (const { event, tool } of this.open.values()) if (tool && event.runId === runId && !isPaused(tool, paused)) return true;
    return false;
  }

  /** The tools executing here now, each with its run. */
  runningTools(): RunningToolOfRun[] {
    return [...this.open.values()].flatMap(({ event, tool }) => (tool ? [{ runId: event.runId, ...tool }] : []));
  }

  /** The request is over: forgets its open spans (the runner closed them, and reported them ended). */
  endRequest(requestId: string): void {
    for (const [id, { event }] of this.open) if (event.requestId === requestId) this.open.delete(id);
  }

  /**
   * The runner died at `endTimeUnixNano`: every open span closed as failed with `message`, those
   * of the runs in `stopped` as stopped with its message. Empties the ledger.
   */
  remains(close: { endTimeUnixNano: string; message: string; stopped?: { runIds: ReadonlySet<string>; message: string } }): RunnerRemains {
    const runningTools = this.runningTools();
    const closed = [...this.open.values()].map(({ event }) => {
      const stopped = close.stopped?.runIds.has(event.runId) === true;
      return closedSpanFromStart({
        event,
        ending: stopped ? { kind: 'stopped', message: close.stopped!.message } : { kind: 'failed', message: close.message },
        closedBy: stopped ? 'run-stopped' : 'runner-died',
        endTimeUnixNano: close.endTimeUnixNano,
      });
    });
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
