/**
 * A runner's span batches as bytes: what its spool file holds (lib/runner/runner-span-outbox.ts
 * writes it; lib/server/runners/runner-spool.ts reads it). One batch is one frame: its length (4 bytes,
 * little-endian) and the batch in V8's serializer format, the format of node's 'advanced' IPC.
 * With a spool, the file is how a runner's spans travel: each batch is encoded once and
 * appended, and a `span-events` message names the frames it announces by their byte range
 * (`SpoolRange`), which the server reads from the file. The ~250 KB of spans of a 21-turn
 * run no longer go through the pipe, whose 64 KiB buffer made the runner wait for the server
 * to read each part (bench/capture-overhead.bench.ts).
 */
import { ftruncateSync, openSync, readSync, writevSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { EndedSpanRecord, SpanStartEvent, SpoolRange } from './runner-protocol';

/**
 * Where the runner writes what must survive it before code from tools/ runs: a file the
 * server reads when the runner died (lib/server/runners/runner-spool.ts). A write is in the kernel
 * when `write` returns, so a runner that then busy-loops, is SIGKILLed or aborts on its heap
 * limit loses nothing of it, and no other process is woken up.
 */
export interface SpanSpool {
  /**
   * Appends one frame holding `payload` (a batch as `encodeSpanBatch` encodes it: the
   * spool's format is lib/runner/span-batch-frames.ts), synchronously.
   * @throws when it cannot be written (nothing of the frame stays in the file).
   */
  write(payload: Uint8Array): void;
  /** Empties the file: the server has read every frame in it (`SpoolRead`). */
  clear(): void;
  /** The file's length in bytes: where the next frame goes. */
  size(): number;
}

/** Span starts and ends reported together. */
export interface SpanBatch {
  starts: SpanStartEvent[];
  ends: EndedSpanRecord[];
}

const HEADER_BYTES = 4;

/** A batch as a frame's payload. @throws when a value cannot be cloned (V8 says "… could not be cloned."). */
export function encodeSpanBatch(batch: SpanBatch): Uint8Array {
  return serialize(batch);
}

/** The header that goes before a payload in the spool file. */
export function frameHeader(payload: Uint8Array): Uint8Array {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(payload.byteLength, 0);
  return header;
}

/**
 * The runner's spool file, opened to append frames (O_APPEND: after a clear the next frame
 * starts the file again; mode 0600, spans hold tools' inputs and outputs).
 * @throws when the file cannot be opened.
 */
export function openSpoolFile(file: string): SpanSpool {
  const fd = openSync(file, 'a', 0o600);
  let size = 0;
  return {
    write: (payload) => {
      const header = frameHeader(payload);
      const written = writevSync(fd, [header, payload]);
      if (written !== header.byteLength + payload.byteLength) {
        // A frame cut short would break every frame after it: take it back.
        ftruncateSync(fd, size);
        throw new Error(`the spool took ${written} of ${header.byteLength + payload.byteLength} bytes`);
      }
      size += written;
    },
    clear: () => {
      ftruncateSync(fd, 0);
      size = 0;
    },
    size: () => size,
  };
}

/** One payload back as its batch. @throws when the bytes are not a batch. */
export function decodeSpanBatch(payload: Uint8Array): SpanBatch {
  const value = deserialize(payload) as Partial<SpanBatch> | null;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.starts) || !Array.isArray(value.ends)) throw new Error('a spool frame that is not a span batch');
  return { starts: value.starts, ends: value.ends };
}

/**
 * The batches of a spool file's bytes, in order. A frame cut short (the runner died in the
 * middle of its write) or unreadable ends the reading: what follows it cannot be framed.
 */
export function readSpoolFrames(bytes: Uint8Array): { batches: SpanBatch[]; problem?: string } {
  const batches: SpanBatch[] = [];
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 0; offset < view.length; ) {
    if (offset + HEADER_BYTES > view.length) return { batches, problem: `a frame header cut short at byte ${offset}` };
    const length = view.readUInt32LE(offset);
    const start = offset + HEADER_BYTES;
    if (start + length > view.length) return { batches, problem: `a frame cut short at byte ${offset} (${length} bytes announced, ${view.length - start} there)` };
    try {
      batches.push(decodeSpanBatch(view.subarray(start, start + length)));
    } catch (error) {
      return { batches, problem: `an unreadable frame at byte ${offset}: ${error instanceof Error ? error.message : String(error)}` };
    }
    offset = start + length;
  }
  return { batches };
}

/**
 * The frames of `range` in a spool file open for reading as `fd`. Bytes the file does not hold
 * (it was emptied or cut) are named as the problem, after the whole frames before them.
 */
export function readSpoolRange(fd: number, range: SpoolRange): { batches: SpanBatch[]; problem?: string } {
  const bytes = Buffer.allocUnsafe(range.length);
  let filled = 0;
  try {
    while (filled < range.length) {
      const read = readSync(fd, bytes, filled, range.length - filled, range.offset + filled);
      if (read === 0) break;
      filled += read;
    }
  } catch (error) {
    return { batches: [], problem: `the spool file could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const { batches, problem } = readSpoolFrames(bytes.subarray(0, filled));
  if (problem) return { batches, problem };
  return filled < range.length ? { batches, problem: `the spool file holds ${filled} of the ${range.length} bytes announced` } : { batches };
}

/**
 * The starts and ends of a `span-events` message: the spool's frames it announces first (they
 * were queued first), read with `readSpooled`, then the rest. What cannot be read is named in
 * `problems`; the batches before it are kept.
 */
export function spanEventsOf(
  event: SpanBatch & { spooled?: SpoolRange },
  readSpooled: (range: SpoolRange) => { batches: SpanBatch[]; problem?: string },
): SpanBatch & { problems: string[] } {
  if (!event.spooled) return { starts: event.starts, ends: event.ends, problems: [] };
  const { batches, problem } = readSpooled(event.spooled);
  const starts: SpanStartEvent[] = [];
  const ends: EndedSpanRecord[] = [];
  for (const batch of batches) {
    for (const start of batch.starts) starts.push(start);
    for (const end of batch.ends) ends.push(end);
  }
  for (const start of event.starts) starts.push(start);
  for (const end of event.ends) ends.push(end);
  return { starts, ends, problems: problem ? [`spooled bytes ${event.spooled.offset}–${event.spooled.offset + event.spooled.length}: ${problem}`] : [] };
}
