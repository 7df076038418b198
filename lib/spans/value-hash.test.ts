import { describe, expect, it } from 'vitest';
import { ValueHash } from './value-hash';

/** The documented stream, built as text and fed at once: what the hash must equal however it feeds it. */
function stream(value: unknown): string {
  if (value === null || value === undefined) return 'n';
  if (typeof value === 'string') return `s${value.length}:${value}`;
  if (typeof value === 'number') return `d${String(value)};`;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (Array.isArray(value)) return `[${value.map(stream).join('')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .sort()
      .filter((key) => object[key] !== undefined)
      .map((key) => `k${key.length}:${key}${stream(object[key])}`);
    return `{${members.join('')}}`;
  }
  return 'n';
}

const digestOf = (value: unknown) => {
  const hash = new ValueHash();
  hash.value(value);
  return hash.digest();
};

const VALUES: unknown[] = [
  { role: 'user', content: [{ text: 'hi' }] },
  [1, 'a', null, true, { b: 2, a: [1.5, -0] }],
  'plain',
  { ü: 'é', b: undefined, a: 12345678901 },
  { z: 1, y: 2, x: 3, w: 4, v: 5, u: 6, t: 7, s: 8, r: 9, q: 10, p: 11, o: 12, n: 13, m: 14, l: 15, k: 16, j: 17, i: 18 },
  { '': [], B: {}, a: false, 'ab': 'x'.repeat(300) },
];

describe('ValueHash', () => {
  it('hashes the documented stream of tokens, one character at a time', () => {
    for (const value of VALUES) {
      const whole = new ValueHash();
      whole.text(stream(value));
      expect(digestOf(value)).toBe(whole.digest());
    }
  });

  // The digests are kept in the trace index (link keys' `history`): a stored trace must keep matching.
  it('gives the digests it gave before (kept in stored link keys)', () => {
    expect(VALUES.slice(0, 4).map(digestOf)).toEqual(['605bb3eea2de6312', '5129863aaf53e2eb', 'a1809ea3da5f2b84', '52600ae916f4f62b']);
    const conversation = new ValueHash();
    conversation.text('m');
    conversation.value('user');
    conversation.members({ text: 'hi', metadata: { x: 1 } }, 'metadata');
    expect(conversation.digest()).toBe('7eddbbcef54cffc6');
  });

  it('is the same whatever order keys were written in', () => {
    expect(digestOf({ b: 1, a: { d: 2, c: 3 } })).toBe(digestOf({ a: { c: 3, d: 2 }, b: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: '1' }));
  });
});
