import { closeSync, mkdtempSync, openSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spanFromEndedRecord, type EndedSpanRecord } from '../../contract/ended-span';
import { errorMessage } from '../../errors';
import type { SpanStartEvent, SpoolRange, SpoolRead } from '../../runner/runner-protocol';
import { readSpoolFrames, readSpoolRange, type SpanBatch } from '../../runner/span-batch-frames';
import type { Span } from '../../spans/span';

let directory: string | undefined;
let spoolCounter = 0;

/**
 * A fresh path for one runner's spool file (lib/runner/span-batch-frames.ts, `SpanSpool`),
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
 * A runner's spool file, as the server reads it: the frames each `span-events` message
 * announces by their byte range (lib/runner/runner-span-outbox.ts), and, when the runner
 * died, the starts and ends in the file that no message announced (a tool that busy-looped or
 * took the process down before the event loop turned).
 */
export class RunnerSpool {
  private readonly startsSeen = new Set<string>();
  private readonly endsSeen = new Set<string>();
  private fd?: number;
  /** What was read: the runner empties the file once this is all of it (`read`, with each command). */
  private epoch = 0;
  private bytesRead = 0;

  constructor(readonly file: string) {}

  /** What the server has read of the file so far: goes back to the runner with its commands. */
  get read(): SpoolRead {
    return { epoch: this.epoch, bytes: this.bytesRead };
  }

  /**
   * The frames of an announced range. A new epoch means the runner emptied the file after
   * everything in it was read: what was seen is forgotten (the sets do not grow run after run).
   */
  readRange(range: SpoolRange): { batches: SpanBatch[]; problem?: string } {
    if (range.epoch !== this.epoch) {
      this.epoch = range.epoch;
      this.startsSeen.clear();
      this.endsSeen.clear();
    }
    this.bytesRead = range.offset + range.length;
    let read: { batches: SpanBatch[]; problem?: string };
    try {
      this.fd ??= openSync(this.file, 'r');
      read = readSpoolRange(this.fd, range);
    } catch (error) {
      read = { batches: [], problem: `the spool file could not be opened: ${errorMessage(error)}` };
    }
    for (const batch of read.batches) {
      for (const start of batch.starts) this.startsSeen.add(keyOf(start));
      for (const end of batch.ends) this.endsSeen.add(keyOf(end));
    }
    return read;
  }

  /**
   * The runner died: the spool's starts and ends that no message announced, then the file is
   * removed. A frame cut short by the death is skipped (the frames before it are whole: each
   * was one write; lib/runner/span-batch-frames.ts).
   */
  takeMissed(): { starts: SpanStartEvent[]; endRecords: EndedSpanRecord[]; ends: Span[] } {
    let bytes: Buffer;
    this.close();
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

  private close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
    this.fd = undefined;
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
