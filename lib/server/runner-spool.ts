import { mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spanFromEndedRecord, type EndedSpanRecord } from '../contract/ended-span';
import { errorMessage } from '../errors';
import type { SpanStartEvent } from '../runtime/runner-protocol';
import { readSpoolFrames } from '../runtime/span-batch-frames';
import type { Span } from '../trace/span';

let directory: string | undefined;
let spoolCounter = 0;

/**
 * A fresh path for one runner's spool file (lib/runtime/span-batch-frames.ts, `SpanSpool`),
 * in a folder of this server's own (mode 0700: spans hold tools' inputs and outputs).
 */
export function newSpoolPath(): string {
  if (!directory) {
    const created = mkdtempSync(path.join(os.tmpdir(), 'loopscope-spool-'));
    directory = created;
    // The server going away takes its runners with it (they exit on IPC disconnect): nobody reads their spools after it.
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  return path.join(directory, `runner-${++spoolCounter}.spool`);
}

const keyOf = (span: { traceId: string; spanId: string }) => `${span.traceId}:${span.spanId}`;

/**
 * What a runner reported over IPC, against what it wrote to its spool before code from tools/
 * ran: when it dies, the spool's starts and ends that never arrived over IPC (a tool that
 * busy-looped or took the process down before the event loop turned) are taken from the file.
 */
export class RunnerSpool {
  private readonly startsSeen = new Set<string>();
  private readonly endsSeen = new Set<string>();
  /** The runner's last request ended: it empties its spool after that result, so what was seen goes when more arrives. */
  private forgetOnNext = false;

  constructor(readonly file: string) {}

  receivedStarts(events: readonly SpanStartEvent[]): void {
    this.forgetIfCleared();
    for (const event of events) this.startsSeen.add(keyOf(event));
  }

  receivedEnds(records: readonly EndedSpanRecord[]): void {
    this.forgetIfCleared();
    for (const record of records) this.endsSeen.add(keyOf(record));
  }

  /**
   * The runner has no request in flight: it empties its spool right after sending the last
   * result, so what was seen is forgotten once it sends more (by then the file was emptied).
   * A runner that dies in between leaves frames that were all seen: none counts twice.
   */
  cleared(): void {
    this.forgetOnNext = true;
  }

  private forgetIfCleared(): void {
    if (!this.forgetOnNext) return;
    this.forgetOnNext = false;
    this.startsSeen.clear();
    this.endsSeen.clear();
  }

  /**
   * The runner died: the spool's starts and ends that never arrived over IPC, then the file is
   * removed. A frame cut short by the death is skipped (the frames before it are whole: each
   * was one write; lib/runtime/span-batch-frames.ts).
   */
  takeMissed(): { starts: SpanStartEvent[]; endRecords: EndedSpanRecord[]; ends: Span[] } {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.file);
    } catch {
      return { starts: [], endRecords: [], ends: [] };
    } finally {
      rmSync(this.file, { force: true });
    }
    const { batches, problem } = readSpoolFrames(bytes);
    if (problem) console.error(`loopscope: a dead runner's spool ends with ${problem}; the frames before it are kept`);
    const starts: SpanStartEvent[] = [];
    const endRecords: EndedSpanRecord[] = [];
    const ends: Span[] = [];
    for (const batch of batches) {
      for (const start of batch.starts) {
        if (this.startsSeen.has(keyOf(start))) continue;
        this.startsSeen.add(keyOf(start));
        starts.push(start);
      }
      for (const record of batch.ends) {
        if (this.endsSeen.has(keyOf(record))) continue;
        this.endsSeen.add(keyOf(record));
        endRecords.push(record);
        try {
          ends.push(spanFromEndedRecord(record));
        } catch (error) {
          console.error(`loopscope: a span in a runner's spool (${record.traceId}:${record.spanId}) could not be read: ${errorMessage(error)}`);
        }
      }
    }
    return { starts, endRecords, ends };
  }

}

/** Removes this server's spool folder once it is empty (each runner's file goes when it exits; another supervisor in the process may still use it). */
export function removeSpoolDirectory(): void {
  if (!directory) return;
  try {
    rmdirSync(directory);
    directory = undefined;
  } catch {
    // Not empty (a runner still runs) or gone already: left for later.
  }
}
