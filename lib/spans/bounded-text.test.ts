import { describe, expect, it } from 'vitest';
import { boundText, CUT_MARK_PATTERN, NAME_MAX_CHARACTERS } from './bounded-text';

describe('boundText', () => {
  it('keeps text up to the bound as it is', () => {
    expect(boundText('planTrip')).toBe('planTrip');
    const exact = 'x'.repeat(NAME_MAX_CHARACTERS);
    expect(boundText(exact)).toBe(exact);
  });

  it('cuts longer text to its start and says how long the whole was', () => {
    expect(boundText('abcdefghij', 4)).toBe('abcd… [10 characters in all]');
    expect(boundText('x'.repeat(NAME_MAX_CHARACTERS + 1))).toMatch(CUT_MARK_PATTERN);
  });

  it('never splits a surrogate pair (an emoji at the cut goes whole)', () => {
    expect(boundText('abc😀def', 4)).toBe('abc… [8 characters in all]');
    expect(boundText('abc😀def', 5)).toBe('abc😀… [8 characters in all]');
  });

  it('does not cut a cut text again (a summary bounded twice is bounded once)', () => {
    const once = boundText('y'.repeat(10_000));
    expect(boundText(once)).toBe(once);
    // A text that only ends like a mark far past the bound is cut all the same.
    const lookalike = `${'z'.repeat(500)}… [3 characters in all]`;
    expect(boundText(lookalike)).toBe(`${'z'.repeat(NAME_MAX_CHARACTERS)}… [${lookalike.length} characters in all]`);
  });
});
