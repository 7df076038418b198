import { isAscii } from 'node:buffer';
import type { JsonSource } from '../spans/otlp-json-by-resource';

const BACKSLASH = 0x5c;
/** The sizes of the pieces `isAscii` is asked about, coarse to fine, before a piece's bytes are looked at one by one. */
const PIECE_SIZES = [4_096, 256];

/** The maximal runs of bytes ≥ 0x80, as `[start, end)`, in order: found by asking `isAscii` of ever smaller pieces. */
function nonAsciiRuns(bytes: Buffer): Array<[number, number]> {
  let pieces: Array<[number, number]> = [[0, bytes.length]];
  for (const size of PIECE_SIZES) {
    const smaller: Array<[number, number]> = [];
    for (const [start, end] of pieces) {
      for (let piece = start; piece < end; piece += size) {
        const pieceEnd = Math.min(piece + size, end);
        if (!isAscii(bytes.subarray(piece, pieceEnd))) smaller.push([piece, pieceEnd]);
      }
    }
    pieces = smaller;
  }
  const runs: Array<[number, number]> = [];
  for (const [start, end] of pieces) {
    for (let at = start; at < end; at++) {
      if (bytes[at] < 0x80) continue;
      const last = runs[runs.length - 1];
      if (last && last[1] === at) last[1] = at + 1;
      else runs.push([at, at + 1]);
    }
  }
  return runs;
}

/** A run of UTF-8 bytes as JSON escapes of its UTF-16 code units (invalid bytes become U+FFFD, as `toString('utf8')` makes them). */
function escapesOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  let escapes = '';
  for (let index = 0; index < text.length; index++) escapes += `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escapes;
}

/**
 * JSON bytes as a one-byte text whose `JSON.parse` gives what their UTF-8 text's would: each
 * non-ASCII character, which valid JSON holds only inside strings, written as `\uXXXX` escapes —
 * or undefined when an escape could change the meaning (a backslash right before a non-ASCII byte:
 * `"\é"` is not JSON, `"\\u00e9"` would be). In invalid JSON the escapes stay invalid outside strings.
 */
function oneByteJsonText(bytes: Buffer): string | undefined {
  if (isAscii(bytes)) return bytes.toString('latin1');
  const parts: string[] = [];
  let copied = 0;
  for (const [start, end] of nonAsciiRuns(bytes)) {
    if (start > 0 && bytes[start - 1] === BACKSLASH) return undefined;
    parts.push(bytes.toString('latin1', copied, start), escapesOf(bytes.subarray(start, end)));
    copied = end;
  }
  parts.push(bytes.toString('latin1', copied));
  return parts.join('');
}

/**
 * A trace file's bytes as what otlp-json-by-resource.ts splits: each element's text made from its
 * own bytes. A 23 MB file with a few em dashes in it is never decoded as one text — V8 makes UTF-8
 * with any non-ASCII byte a two-byte string, ≈35 ms to decode and 46 MB to hold — but element by
 * element, each a one-byte text that dies with its element.
 */
export function bytesJsonSource(bytes: Buffer): JsonSource {
  return {
    length: bytes.length,
    codeAt: (at) => bytes[at],
    indexOf: (pattern, from) => bytes.indexOf(pattern, from, 'latin1'),
    text: (from, to) => {
      const piece = bytes.subarray(from, to);
      return oneByteJsonText(piece) ?? piece.toString('utf8');
    },
  };
}
