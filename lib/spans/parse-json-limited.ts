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
 * How deeply arrays and objects nest in a parsed JSON value: `1` for `[]`, `0` for a scalar.
 * Iterative (an explicit stack), so any depth is measured without overflowing the call stack.
 * It walks the parsed value rather than the text: V8's `JSON.parse` is itself iterative (a
 * million levels parse fine), and the walk never reads the characters of strings — most of a
 * trace is genkit's JSON kept inside string attributes — so it costs ~6 ms on a 23 MB trace
 * where a pass over the text cost ~38 ms.
 */
export function valueNestingDepth(root: unknown): number {
  if (typeof root !== 'object' || root === null) return 0;
  let deepest = 0;
  const values: object[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const item: unknown = (value as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
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
  const parsed = tryParseJsonUnbounded(input);
  if (!parsed.ok) return parsed;
  // Each level takes two characters at least (`[]`): a shorter text cannot nest past the limit,
  // and most of what is parsed (a tool's arguments, a model's answer) is that short.
  if (input.length < 2 * (maxDepth + 1)) return parsed;
  return checkNesting(parsed.value, maxDepth);
}

/**
 * `tryParseJsonLimited` without the nesting check, for a reader that bounds the depth of what it
 * keeps by itself (the fast OTLP decoder, otlp-json-fast.ts): whatever else walks the value must
 * have it through `checkNesting` first.
 */
export function tryParseJsonUnbounded(input: string | Uint8Array): JsonParseOutcome {
  try {
    return { ok: true, value: JSON.parse(typeof input === 'string' ? input : utf8.decode(input)) as unknown };
  } catch (error) {
    return { ok: false, problem: `not valid JSON: ${errorMessage(error)}`, cause: error };
  }
}

/** A parsed value behind the nesting limit (`tryParseJsonLimited`'s second half). */
export function checkNesting(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonParseOutcome {
  const depth = valueNestingDepth(value);
  return depth > maxDepth ? { ok: false, problem: `nested ${depth} levels deep; the limit is ${maxDepth}` } : { ok: true, value };
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
