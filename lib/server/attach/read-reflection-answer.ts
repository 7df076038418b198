/**
 * Reads what an attached app's reflection server answered, behind the limits of every other
 * JSON Loopscope reads: at most `REFLECTION_MAX_ANSWER_BYTES` (the OTLP door's 32 MiB; a body
 * over it is cut off, never buffered whole) and at most `MAX_JSON_DEPTH` levels of nesting
 * (lib/spans/parse-json-limited.ts). The reflection server is a local process Loopscope found
 * by a file in a watched folder: anything answering there is read as untrusted input. Before
 * these limits, a runtime whose `/api/actions` schema nested 1,000 levels overflowed the stack of
 * the schema reader and made `GET /api/runtimes` answer 500 for every runtime, and a 700 MB
 * answer took the server to 1.9 GB.
 */
import { errorMessage, LoopscopeError } from '../../errors';
import { MAX_JSON_DEPTH, valueNestingDepth } from '../../spans/parse-json-limited';
import { REFLECTION_MAX_ANSWER_BYTES } from '../http/body-limits';

/** The answer's bytes, refused once they pass the limit (declared or counted): the rest is never read. */
async function readAnswerBytes(options: { response: Response; what: string; maxBytes: number }): Promise<Uint8Array> {
  const { response, what, maxBytes } = options;
  const tooLarge = (size: string) =>
    new LoopscopeError('FAILED_PRECONDITION', `The app's answer to ${what} is ${size} bytes; Loopscope reads at most ${maxBytes} bytes from a reflection server.`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(String(declared));
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      // The request's time limit: the caller names it.
      if (error instanceof DOMException && error.name === 'TimeoutError') throw error;
      throw new LoopscopeError('UNAVAILABLE', `The app's answer to ${what} broke off (${errorMessage(error)}); is the app still running?`, { cause: error });
    }
    if (read.done) break;
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`more than ${maxBytes}`);
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A reflection answer read whole: its text, or `json` when it parsed (within the depth limit). */
export type ReflectionAnswer = { text: string; json: { ok: true; value: unknown } | { ok: false; problem: string } };

/**
 * Reads a reflection answer within the size limit and parses it as JSON within the depth limit.
 * Text that is not JSON is returned as such (genkit answers an unknown action with plain text);
 * JSON nested too deep is refused.
 * @param options.what names the request in error messages (`GET /api/actions`).
 * @throws LoopscopeError FAILED_PRECONDITION for an answer over the size or depth limit,
 *   UNAVAILABLE when it broke off.
 */
export async function readReflectionAnswer(options: { response: Response; what: string; maxBytes?: number }): Promise<ReflectionAnswer> {
  const bytes = await readAnswerBytes({ response: options.response, what: options.what, maxBytes: options.maxBytes ?? REFLECTION_MAX_ANSWER_BYTES });
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { text, json: { ok: false, problem: `not valid JSON: ${errorMessage(error)}` } };
  }
  // V8's JSON.parse is iterative: the depth is measured on the value, before anything recursive walks it.
  const depth = valueNestingDepth(value);
  if (depth > MAX_JSON_DEPTH) throw new LoopscopeError('FAILED_PRECONDITION', `The app's answer to ${options.what} is nested ${depth} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
  return { text, json: { ok: true, value } };
}

/**
 * A reflection answer that must be JSON.
 * @throws LoopscopeError FAILED_PRECONDITION over a limit or when it is not JSON, UNAVAILABLE when it broke off.
 */
export async function readReflectionJson(options: { response: Response; what: string; maxBytes?: number }): Promise<unknown> {
  const { json } = await readReflectionAnswer(options);
  if (!json.ok) throw new LoopscopeError('FAILED_PRECONDITION', `The app's answer to ${options.what} is ${json.problem}.`);
  return json.value;
}
