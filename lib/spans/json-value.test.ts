import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json-value';

/** canonicalJson's definition: JSON.stringify of a copy of every object with its keys sorted. */
const definition = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, (inner as Record<string, unknown>)[key]]),
        )
      : inner,
  ) ?? 'undefined';

describe('canonicalJson', () => {
  it('writes what its definition writes, for recorded JSON and for what JSON decides its own way', () => {
    const values: unknown[] = [
      undefined,
      null,
      Number.NaN,
      -0,
      Infinity,
      1e21,
      'x\u2028"\\\n',
      { b: 1, a: [1, { d: null, c: 'é' }], '': true },
      [undefined, () => 1, Symbol('s'), , 2], // eslint-disable-line no-sparse-arrays
      { b: undefined, a: () => 1, c: Symbol('s') },
      // Array-index keys come first in JSON whatever their sorted place.
      { '10': 1, '2': 2, a: 3, '01': 4 },
      { toJSON: () => 'z' },
      { nested: { toJSON: () => ({ b: 1, a: 2 }) } },
      new Date(0),
      Object.assign(Object.create(null), { b: 1, a: 2 }),
      JSON.parse('{"__proto__": 1, "b": 2}'),
      new Number(3),
      { n: new String('s') },
      Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${30 - index}`, index])),
      JSON.parse('{"role":"model","content":[{"toolRequest":{"name":"getWeather","ref":"w-1","input":{"city":"Lisbon","unit":"C"}}}]}'),
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(definition(value));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('throws where its definition throws (a bigint)', () => {
    expect(() => definition({ a: 10n })).toThrow(TypeError);
    expect(() => canonicalJson({ a: 10n })).toThrow(TypeError);
  });
});
