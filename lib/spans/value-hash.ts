import { sortedKeys } from './sorted-keys';

// The token characters, as code units.
const COLON = 0x3a; // :
const SEMICOLON = 0x3b; // ;
const N = 0x6e; // n: null or undefined
const S = 0x73; // s: a string
const D = 0x64; // d: a number
const T = 0x74; // t: true
const F = 0x66; // f: false
const K = 0x6b; // k: an object's key
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }

/**
 * A 64-bit hash built while walking a value, as 16 hex characters: two independent 32-bit
 * multiply-xorshift lanes (cyrb53's mixing, both lanes kept). Pure JavaScript because the graph
 * is also built in the browser; good enough to tell conversations apart, and every match also
 * compares the tool requests in full.
 *
 * The digests are kept in the trace index (link keys' `history`), so the stream of characters
 * fed to the lanes is fixed: each token is its tag, its length and `:` (`s5:hello`, `k4:role`),
 * `d<number>;`, `t`/`f`/`n`, `[`…`]`, `{`…`}`. It is fed one character at a time rather than
 * built as strings first, and an object's keys are sorted without a copy: the graph build hashes
 * every conversation of a file (docs/performance.md, "Graph build").
 */
export class ValueHash {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  text(text: string): void {
    let { h1, h2 } = this;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  /** One character (its UTF-16 code unit), as `text` would feed it. */
  private character(code: number): void {
    this.h1 = Math.imul(this.h1 ^ code, 2654435761);
    this.h2 = Math.imul(this.h2 ^ code, 1597334677);
  }

  /** A tag, a length and `:` — the characters of `${tag}${length}:`. */
  private sized(tag: number, length: number): void {
    this.character(tag);
    this.text(String(length));
    this.character(COLON);
  }

  /** A value in canonical form: object keys sorted, undefined members left out (as JSON would), every token tagged so no two values feed the same. */
  value(value: unknown): void {
    if (value === null || value === undefined) return this.character(N);
    switch (typeof value) {
      case 'string':
        this.sized(S, value.length);
        return this.text(value);
      case 'number':
      case 'bigint':
        this.character(D);
        this.text(String(value));
        return this.character(SEMICOLON);
      case 'boolean':
        return this.character(value ? T : F);
      case 'object':
        break;
      default:
        return this.character(N);
    }
    if (Array.isArray(value)) {
      this.character(OPEN_BRACKET);
      for (const item of value) this.value(item);
      return this.character(CLOSE_BRACKET);
    }
    this.members(value as Record<string, unknown>);
  }

  /** An object's members in key order, optionally without one key. */
  members(object: Record<string, unknown>, skip?: string): void {
    this.character(OPEN_BRACE);
    for (const key of sortedKeys(object)) {
      if (key === skip || object[key] === undefined) continue;
      this.sized(K, key.length);
      this.text(key);
      this.value(object[key]);
    }
    this.character(CLOSE_BRACE);
  }

  digest(): string {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}
