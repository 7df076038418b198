import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import type { Span } from './span';

/**
 * The key every `resourceSpans` element starts with, as OTel exporters and Loopscope write them.
 * In JSON text a `"` inside a string is escaped, so this can only be a key (followed by `:`) or a
 * whole string value; after `{` it is an object's first key.
 */
const RESOURCE_KEY = '"resource"';
/** How far into a text its first element's key may be: past this, the text is parsed whole. */
const MAX_HEAD = 64 * 1024;
/** What the text before the first element ends with: the list the elements are in. */
const LIST_START = /"resourceSpans"\s*:\s*\[\s*$/;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * What the splitter reads: a text, or the bytes of one (lib/store/bytes-json-source.ts). Positions
 * are the text's code units or the bytes; what the splitter looks at between elements is ASCII,
 * the same in both.
 */
export interface JsonSource {
  readonly length: number;
  /** The code unit or byte at `at` (NaN or undefined past the end). */
  codeAt(at: number): number;
  /** Where `pattern` (ASCII) is next found from `from` on; -1 when it is not. */
  indexOf(pattern: string, from: number): number;
  /** `[from, to)` as a text `JSON.parse` reads as it would read the original's. */
  text(from: number, to: number): string;
}

/** A text as a `JsonSource`. */
export function textSource(text: string): JsonSource {
  return { length: text.length, codeAt: (at) => text.charCodeAt(at), indexOf: (pattern, from) => text.indexOf(pattern, from), text: (from, to) => text.slice(from, to) };
}

/** The index after the last character before `end` that is not whitespace. */
function trimmedEnd(text: JsonSource, end: number): number {
  let at = end;
  while (at > 0 && isWhitespace(text.codeAt(at - 1))) at--;
  return at;
}

/** The index of the first character from `start` on that is not whitespace. */
function trimmedStart(text: JsonSource, start: number): number {
  let at = start;
  while (at < text.length && isWhitespace(text.codeAt(at))) at++;
  return at;
}

/**
 * The next object whose first key is `resource`, from `from` on: where it starts (`open`) and
 * where its key ends (`after`, where the search for the one after it goes on); undefined when none.
 */
function nextElement(text: JsonSource, range: { from: number; limit?: number }): { open: number; after: number } | undefined {
  for (let key = text.indexOf(RESOURCE_KEY, range.from); key >= 0 && (range.limit === undefined || key < range.limit); key = text.indexOf(RESOURCE_KEY, key + RESOURCE_KEY.length)) {
    const open = trimmedEnd(text, key) - 1;
    const after = key + RESOURCE_KEY.length;
    if (text.codeAt(open) === OPEN_BRACE && text.codeAt(trimmedStart(text, after)) === COLON) return { open, after };
  }
  return undefined;
}

/** One piece of text parsed, or undefined when it is not one complete JSON value. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether the text before the first element is the head of an export request whose last key is
 * the elements' list: `{`, any other members (a file's `"description"`), `"resourceSpans": [`.
 */
function isHead(head: string): boolean {
  const list = LIST_START.exec(head);
  if (!list) return false;
  const before = head.slice(0, list.index).trim();
  if (before === '{') return true;
  if (!before.endsWith(',')) return false;
  const members = parsedOrUndefined(`${before.slice(0, -1)}}`);
  return typeof members === 'object' && members !== null && !Array.isArray(members) && !('resourceSpans' in members);
}

/**
 * The spans of a canonical OTLP JSON export request — its text, or its file's bytes — read one
 * `resourceSpans` element at a time: each element is parsed and decoded (otlp-json-fast.ts) before
 * the next is parsed, so no parsed element outlives its decoding. A 23 MB trace parsed at once is
 * a tree of tens of megabytes that every young-generation collection meanwhile copies; element by
 * element it dies young (bench/graph-build.bench.ts, docs/performance.md). Compact and indented
 * layouts alike.
 *
 * Gives what decoding the whole parsed text gives, or undefined — and the caller parses the text
 * whole — whenever that is not certain: no head ending in the `resourceSpans` list, an element
 * that does not start with its `resource`, one that does not parse on its own (an element
 * holding another object whose first key is `resource` splits wrongly and fails here), elements
 * not separated by commas alone, anything after the list but the closing brace, an element the
 * fast decoder leaves to the tolerant path. Each element that parses is a complete value right
 * after the head or a comma, so together they are exactly the list's elements.
 */
export function decodeOtlpJsonByResource(text: JsonSource): Span[] | undefined {
  // Looked for in the head only: a text of another kind is not searched to its end.
  const first = nextElement(text, { from: 0, limit: MAX_HEAD });
  if (!first || !isHead(text.text(0, first.open))) return undefined;
  const spans: Span[] = [];
  /** Parses and decodes the element `text[from, to)`: false when it is not one the fast decoder reads. */
  const take = (from: number, to: number): boolean => {
    const element = parsedOrUndefined(text.text(from, to));
    const decoded = element === undefined ? undefined : decodeCanonicalOtlpJson({ resourceSpans: [element] });
    if (!decoded) return false;
    for (const span of decoded) spans.push(span);
    return true;
  };
  let current = first;
  for (let next = nextElement(text, { from: current.after }); next; next = nextElement(text, { from: current.after })) {
    const comma = trimmedEnd(text, next.open) - 1;
    if (text.codeAt(comma) !== COMMA || !take(current.open, trimmedEnd(text, comma))) return undefined;
    current = next;
  }
  // The last element ends at the list's `]`, which only the object's `}` and whitespace follow.
  const close = trimmedEnd(text, text.length) - 1;
  if (text.codeAt(close) !== CLOSE_BRACE) return undefined;
  const listEnd = trimmedEnd(text, close) - 1;
  if (text.codeAt(listEnd) !== CLOSE_BRACKET) return undefined;
  return take(current.open, trimmedEnd(text, listEnd)) ? spans : undefined;
}
