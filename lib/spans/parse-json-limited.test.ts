import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonLimited, tryParseJsonLimited, valueNestingDepth } from './parse-json-limited';
import { deepArrayText, deepObjectText } from './testing/deep-json';
import { thrownLoopscopeError } from './testing/thrown-error';

/** The depth of a parsed value, the slow recursive way: what the iterative walk must agree with. */
function recursiveDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(recursiveDepth));
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('valueNestingDepth', () => {
  it.each([
    ['1', 0],
    ['"text"', 0],
    ['[]', 1],
    ['{}', 1],
    ['[[1], {"a": [2]}]', 3],
    // Brackets and quotes inside strings do not count, whatever the escapes around them.
    ['["[[[{{{"]', 1],
    ['["\\"[[[", "\\\\", "\\\\\\"]]]"]', 1],
    ['{"key [": "value {", "a": ["\\u005b"]}', 2],
    ['["é → [ 漢字 😀 {"]', 1],
  ])('%s is %i deep', (text, depth) => {
    expect(valueNestingDepth(JSON.parse(text))).toBe(depth);
    expect(recursiveDepth(JSON.parse(text))).toBe(depth);
  });

  it('agrees with the recursive depth on every real-genkit fixture and example trace', () => {
    for (const folder of ['lib/graph/__fixtures__', 'traces']) {
      for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
        const value = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
        expect(valueNestingDepth(value), file).toBe(recursiveDepth(value));
      }
    }
  });

  it('agrees with the recursive depth on random values', () => {
    const random = (level: number, seed: { n: number }): unknown => {
      seed.n = (seed.n * 1103515245 + 12345) % 2 ** 31;
      const pick = seed.n % 7;
      if (level > 12 || pick === 0) return `s"\\[{${seed.n}`;
      if (pick === 1) return seed.n;
      if (pick < 4) return Array.from({ length: (seed.n % 3) + 1 }, () => random(level + 1, seed));
      return Object.fromEntries(Array.from({ length: (seed.n % 3) + 1 }, (_, index) => [`k${index}]"`, random(level + 1, seed)]));
    };
    for (let n = 1; n <= 200; n++) {
      const value = random(0, { n });
      expect(valueNestingDepth(value), JSON.stringify(value)).toBe(recursiveDepth(value));
    }
  });

  it('measures 100,000 levels (parsed by JSON.parse, which is iterative) without overflowing the stack', () => {
    expect(valueNestingDepth(JSON.parse(deepArrayText(100_000)))).toBe(100_000);
    expect(valueNestingDepth(JSON.parse(deepObjectText(100_000)))).toBe(100_000);
  });
});

describe('parseJsonLimited', () => {
  it('parses JSON up to the limit', () => {
    expect(MAX_JSON_DEPTH).toBe(128);
    expect(recursiveDepth(parseJsonLimited(deepArrayText(MAX_JSON_DEPTH), { what: 'The body' }))).toBe(MAX_JSON_DEPTH);
    expect(parseJsonLimited(encode('{"a": ["é"]}'), { what: 'The body' })).toEqual({ a: ['é'] });
  });

  it.each([
    ['arrays', deepArrayText],
    ['objects', deepObjectText],
  ])('refuses 10,000 and 1,000 levels of %s with INVALID_ARGUMENT naming the depth and the limit', (_kind, deep) => {
    for (const levels of [10_000, 1_000, MAX_JSON_DEPTH + 1]) {
      for (const input of [deep(levels), encode(deep(levels))]) {
        const error = thrownLoopscopeError(() => parseJsonLimited(input, { what: 'The body' }));
        expect(error.code).toBe('INVALID_ARGUMENT');
        expect(error.message).toBe(`The body is nested ${levels} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
      }
    }
  });

  it('takes another limit', () => {
    expect(thrownLoopscopeError(() => parseJsonLimited('[[[1]]]', { what: 'It', maxDepth: 2 })).message).toBe('It is nested 3 levels deep; the limit is 2.');
  });

  it('refuses text that is not JSON, and bytes that are not UTF-8, naming the input', () => {
    const error = thrownLoopscopeError(() => parseJsonLimited('{"a": ', { what: 'The export body' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/^The export body is not valid JSON: .+\.$/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(thrownLoopscopeError(() => parseJsonLimited(new Uint8Array([0x7b, 0xff, 0x7d]), { what: 'The export body' })).message).toMatch(/^The export body is not valid JSON: /);
  });

  it('reports instead of throwing through tryParseJsonLimited', () => {
    expect(tryParseJsonLimited('[1]')).toEqual({ ok: true, value: [1] });
    expect(tryParseJsonLimited(deepArrayText(200))).toEqual({ ok: false, problem: 'nested 200 levels deep; the limit is 128' });
    expect(tryParseJsonLimited('nope')).toMatchObject({ ok: false, problem: expect.stringMatching(/^not valid JSON: /) });
  });
});
