import { describe, expect, it } from 'vitest';
import type { EndedSpanRecord } from './ended-span';
import { restoreSharedValues, shareRepeatedValues } from './shared-values';

function record(spanId: string, attributes: Record<string, unknown>): EndedSpanRecord {
  return {
    traceId: 'a'.repeat(32),
    spanId,
    name: 'generate',
    kind: 0,
    startTime: [1, 0],
    endTime: [2, 0],
    attributes,
    events: [],
    links: [],
    status: { code: 0 },
    resource: {},
    scope: { name: 'genkit-tracer' },
  };
}

describe('shareRepeatedValues', () => {
  it('sends a long value several spans hold once, leaves short and single ones inline, and restores every attribute', () => {
    const output = JSON.stringify({ text: 'x'.repeat(2_000) });
    const input = 'y'.repeat(1_500);
    const records = [
      record('1'.repeat(16), { 'genkit:output': output, 'genkit:input': input, 'genkit:name': 'generate' }),
      // An equal value in another string object (genkit stringifies each span's output on its own).
      record('2'.repeat(16), { 'genkit:output': JSON.stringify({ text: 'x'.repeat(2_000) }), 'genkit:name': 'generate', count: 3 }),
      record('3'.repeat(16), { 'genkit:output': output, short: 'ok', list: ['a', 'b'] }),
    ];
    const before = JSON.stringify(records);
    const shared = shareRepeatedValues(records);
    expect(shared.values).toEqual([output]);
    expect(shared.ends.map((end) => end.attributes['genkit:output'])).toEqual([{ shared: 0 }, { shared: 0 }, { shared: 0 }]);
    expect(shared.ends[0].attributes['genkit:input']).toBe(input);
    // The records (the SDK spans' attributes, by reference) are not touched.
    expect(JSON.stringify(records)).toBe(before);
    // Three copies became one, plus the references.
    expect(JSON.stringify(shared).length).toBeLessThan(before.length - 2 * output.length + 100);
    // Over IPC (JSON), then back: every attribute as it was.
    const received = JSON.parse(JSON.stringify(shared)) as typeof shared;
    expect(restoreSharedValues(received.ends, received.values)).toEqual(records);
  });

  it('sends records without a repeated long value as they are, and a reference past the table stays as it is', () => {
    const records = [record('1'.repeat(16), { a: 'z'.repeat(3_000) }), record('2'.repeat(16), { a: 'short' })];
    expect(shareRepeatedValues(records)).toEqual({ ends: records });
    const broken = [record('1'.repeat(16), { a: { shared: 5 }, b: 'kept' })];
    expect(restoreSharedValues(broken, ['only'])).toEqual(broken);
    expect(restoreSharedValues(broken, undefined)).toEqual(broken);
  });
});
