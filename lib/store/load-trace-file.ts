import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { errorMessage, LoopscopeError } from '../errors';
import { mergeSpans } from '../spans/merge-spans';
import { decodeOtlpProtobuf } from '../spans/otlp-protobuf';
import { tryParseJsonLimited } from '../spans/parse-json-limited';
import { decodeTraceDocument, parseTraceText, readJsonTrace } from '../spans/parse-trace-text';
import type { Span } from '../spans/span';
import { bytesJsonSource } from './bytes-json-source';

export { parseTraceText };

/**
 * A gzipped trace may expand to this much. The JSON text of a trace cannot be longer anyway
 * (V8's string limit is 2^29 - 24 characters), and a small gzip bomb stops here.
 */
export const MAX_GUNZIPPED_TRACE_BYTES = 512 * 1024 * 1024;

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

function gunzipTrace(bytes: Uint8Array, sourceName: string): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_GUNZIPPED_TRACE_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger/.test(errorMessage(error))) {
      throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: the gzipped file expands past ${MAX_GUNZIPPED_TRACE_BYTES / 1024 / 1024} MiB, the most a trace file may hold.`, { cause: error });
    }
    throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: starts like gzip but is not valid gzip: ${errorMessage(error)}.`, { cause: error });
  }
}

/** JSON text: (after a UTF-8 byte order mark and whitespace) `{`, `[`, or nothing at all. */
function startsLikeJsonText(bytes: Uint8Array): boolean {
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (index < bytes.length && (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09)) index++;
  return index === bytes.length || bytes[index] === 0x7b || bytes[index] === 0x5b;
}

/** The bytes as a Buffer over the same memory. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The whole buffer as UTF-8 in one piece (faster for JSON.parse than chunked decoding: read-text-file.ts). */
const utf8Text = (bytes: Uint8Array) => asBuffer(bytes).toString('utf8');

/** The OTLP JSON object of a protobuf `ExportTraceServiceRequest`, or why the bytes are not one. */
function tryDecodeProtobuf(bytes: Uint8Array): { ok: true; request: unknown } | { ok: false; problem: string; cause: unknown } {
  try {
    return { ok: true, request: decodeOtlpProtobuf(bytes) };
  } catch (error) {
    return { ok: false, problem: errorMessage(error).replace(/^OTLP protobuf body is malformed: /, ''), cause: error };
  }
}

function parseProtobufTrace(bytes: Uint8Array, sourceName: string): Span[] {
  const decoded = tryDecodeProtobuf(bytes);
  if (!decoded.ok) {
    // JSON that is not an object or a list (`"text"`, `42`) is not a trace: say that, not "not protobuf".
    const text = utf8Text(bytes);
    if (tryParseJsonLimited(text).ok) return parseTraceText(text, sourceName);
    throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: not JSON, and not an OTLP protobuf ExportTraceServiceRequest either: ${decoded.problem}.`, { cause: decoded.cause });
  }
  // The same span rules as an OTLP JSON file (ids, times), with the same messages.
  const spans = mergeSpans([], decodeTraceDocument({ value: decoded.request, sourceName, where: '' }));
  if (spans.length === 0) {
    throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: not a trace: it is not JSON, and read as an OTLP protobuf ExportTraceServiceRequest it holds no spans.`);
  }
  return spans;
}

/**
 * Reads spans from the bytes of a trace file in any supported format: everything
 * `parseTraceText` reads, an OTLP protobuf `ExportTraceServiceRequest` (as the OTLP/HTTP
 * exporters send it), and either of them gzipped. The format is sniffed, not taken from the
 * name: text that starts with `{` or `[` (after whitespace) is JSON, anything else protobuf.
 *
 * @param sourceName names the input in error messages (a path or file name).
 * @throws LoopscopeError INVALID_ARGUMENT `"<sourceName>: <what is wrong>"`.
 */
export function parseTraceBytes(bytes: Uint8Array, sourceName: string): Span[] {
  const content = isGzip(bytes) ? gunzipTrace(bytes, sourceName) : bytes;
  if (!startsLikeJsonText(content)) return parseProtobufTrace(content, sourceName);
  try {
    // What exporters write is read element by element from the bytes (bytes-json-source.ts); anything else decoded and parsed whole.
    return readJsonTrace({ source: bytesJsonSource(asBuffer(content)), text: () => utf8Text(content), sourceName });
  } catch (error) {
    // A protobuf request starts with 0x0a (field 1, length-delimited), which is also "\n": one
    // whose first length byte happens to be `{` (123) or `[` (91) looks like JSON text.
    if (content[0] === 0x0a) {
      try {
        return parseProtobufTrace(content, sourceName);
      } catch {
        // Not protobuf either: the JSON error says more.
      }
    }
    throw error;
  }
}

/**
 * Reads a trace file into spans: OTLP JSON, JSONL of export requests, Genkit TraceData, OTLP
 * protobuf (`.pb`, `.bin`, `.otlp` or any name), each optionally gzipped (see `parseTraceBytes`).
 * @throws LoopscopeError NOT_FOUND when the file does not exist, INVALID_ARGUMENT when it is not a trace.
 */
export async function loadTraceFile(path: string): Promise<Span[]> {
  let bytes: Uint8Array;
  try {
    // Read at once: parsing blocks far longer than the read, and the asynchronous read of a
    // 23 MB file takes ~2.5 ms more (it goes to the thread pool in 512 KiB pieces).
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoopscopeError('NOT_FOUND', `Trace file not found: ${path}`, { cause: error });
    if (code === 'EACCES' || code === 'EPERM') throw new LoopscopeError('PERMISSION_DENIED', `Cannot read ${path}: permission denied.`, { cause: error });
    if (code === 'EISDIR') throw new LoopscopeError('INVALID_ARGUMENT', `${path} is a folder, not a trace file.`, { cause: error });
    throw new LoopscopeError('INTERNAL', `Could not read ${path}: ${errorMessage(error)}`, { cause: error });
  }
  return parseTraceBytes(bytes, path);
}
