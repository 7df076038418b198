import { describe, expect, it } from 'vitest';
import { printableText } from './printable-text';

describe('printableText', () => {
  it('writes what a terminal would act on as \\u escapes and leaves the rest alone', () => {
    expect(printableText('a\nb\rc\u001b]0;owned\u0007d\u2028e\u202ef\u0085g')).toBe('a\\u000ab\\u000dc\\u001b]0;owned\\u0007d\\u2028e\\u202ef\\u0085g');
    expect(printableText('transferMoney#t1 → ✓ paused — “ok” 日本')).toBe('transferMoney#t1 → ✓ paused — “ok” 日本');
  });
});
