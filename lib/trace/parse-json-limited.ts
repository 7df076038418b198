import { errorMessage, LoopscopeError } from '../errors';

/**
 * How deeply arrays and objects may nest in any JSON Loopscope reads: OTLP bodies, API
 * bodies, trace files, the store's files and the JSON genkit keeps in string attributes.
 *
 * Why 128: real data is shallow. The deepest of our real-genkit fixtures and example traces
 * is 12 levels as a file (resourceSpans → scopeSpans → spans → attributes → AnyValue) and 9
 * inside an attribute (genkit stores its input/output as JSON strings, so the OTLP structure
 * stays flat); a tool input nested 100 levels would still fit. What breaks is far above:
 * measured on Node 20 with the default stack, in a fresh process, the tolerant zod decoder
 * (otlp-json.ts) overflows from ~900 levels (300–500 nested arrayValues or kvlistValues, 3 or
 * 4 levels each), the fast decoder at ~13,000, `JSON.stringify` (the store writing a trace)
 * at ~4,100. 128 stays well below each — 7× below the first — leaving stack for whatever
 * recursion (graph building, the detail panel's JSON, generated repros) comes after.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * A string's characters up to the next quote, escapes included. The repeat is bounded so the
 * regex engine's backtrack stack stays small on any input (an unbounded `*` overflows it on a
 * few million escapes); it always matches, so it never backtracks at all.
 */
const STRING_RUN = /[^"\\]*(?:\\[\s\S][^"\\]*){0,256}/y;

/**
 * How deeply arrays and objects nest in JSON text: `1` for `[]`, `0` for a scalar. One
 * iterative pass that skips strings and their escapes, so it cannot overflow the stack and
 * runs before anything is parsed. Malformed text gets a number too (unclosed brackets count);
 * `JSON.parse` reports what is wrong with it.
 */
export function jsonNestingDepth(text: string): number {
  // Character codes as literals, not module constants: the loop runs once per character.
  // 0x22 `"`, 0x5c `\`, 0x5b `[`, 0x7b `{`, 0x5d `]`, 0x7d `}`.
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      // Skipped natively, inline (a call per string costs a sixth of the pass): in a trace most
      // characters are inside strings. Most strings hold no escaped quote: one search ends them.
      const quote = text.indexOf('"', at + 1);
      if (quote < 0) return deepest;
      if (text.charCodeAt(quote - 1) !== 0x5c) {
        at = quote;
        continue;
      }
      // Escapes (genkit's JSON inside a string attribute is full of \"): the regex skips them.
      let end = at + 1;
      for (;;) {
        STRING_RUN.lastIndex = end;
        STRING_RUN.test(text);
        end = STRING_RUN.lastIndex;
        if (end >= length) return deepest;
        if (text.charCodeAt(end) === 0x22) break;
        // Stopped after 256 escapes: step over the next one and go on.
        end += 2;
        if (end >= length) return deepest;
      }
      at = end;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

export type JsonParseOutcome = { ok: true; value: unknown } | { ok: false; problem: string; cause?: unknown };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `JSON.parse` behind the nesting limit, reporting instead of throwing. `problem` completes a
 * sentence about the input: `not valid JSON: …` or `nested 10000 levels deep; the limit is 128`.
 * Bytes must be UTF-8 (JSON's encoding): anything else is not valid JSON.
 */
export function tryParseJsonLimited(input: string | Uint8Array, maxDepth = MAX_JSON_DEPTH): JsonParseOutcome {
  try {
    const text = typeof input === 'string' ? input : utf8.decode(input);
    // A text shorter than the limit cannot open more brackets than the limit: skip the pass.
    const depth = text.length <= maxDepth ? 0 : jsonNestingDepth(text);
    if (depth > maxDepth) return { ok: false, problem: `nested ${depth} levels deep; the limit is ${maxDepth}` };
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `not valid JSON: ${errorMessage(error)}`, cause: error };
  }
}

/**
 * `JSON.parse` behind the nesting limit: every JSON decoder of Loopscope reads through it, so
 * no input can nest deep enough to overflow the stack of whatever walks the value next.
 *
 * @param options.what names the input at the start of the error sentence (`The export body`).
 * @throws LoopscopeError INVALID_ARGUMENT `"<what> is nested N levels deep; the limit is M."`
 *   or `"<what> is not valid JSON: …."`.
 */
export function parseJsonLimited(input: string | Uint8Array, options: { what: string; maxDepth?: number }): unknown {
  const outcome = tryParseJsonLimited(input, options.maxDepth);
  if (!outcome.ok) throw new LoopscopeError('INVALID_ARGUMENT', `${options.what} is ${outcome.problem}.`, { cause: outcome.cause });
  return outcome.value;
}
