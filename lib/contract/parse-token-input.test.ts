import { describe, expect, it } from 'vitest';
import { parseTokenInput, tokenFromFragment } from './parse-token-input';

describe('parseTokenInput', () => {
  it('takes a bare token, trimmed', () => {
    expect(parseTokenInput('  abc-DEF_123  ')).toBe('abc-DEF_123');
  });

  it('takes the token out of the whole banner URL', () => {
    expect(parseTokenInput('http://127.0.0.1:4747/#token=abc-DEF_123')).toBe('abc-DEF_123');
    expect(parseTokenInput('  http://[::1]:4747/#token=abc\n')).toBe('abc');
  });

  it('takes the token out of a fragment with other parameters, and decodes it', () => {
    expect(parseTokenInput('http://127.0.0.1:4747/runs/x#tab=graph&token=a%2Bb')).toBe('a+b');
  });

  it('keeps a malformed percent sequence as typed', () => {
    expect(parseTokenInput('http://127.0.0.1:4747/#token=a%zz')).toBe('a%zz');
  });

  it('returns null for nothing to try', () => {
    expect(parseTokenInput('')).toBeNull();
    expect(parseTokenInput('   ')).toBeNull();
    expect(parseTokenInput('http://127.0.0.1:4747/#token=')).toBeNull();
  });
});

describe('tokenFromFragment', () => {
  it('reads #token=…', () => {
    expect(tokenFromFragment('#token=abc')).toBe('abc');
    expect(tokenFromFragment('#x=1&token=abc')).toBe('abc');
  });

  it('ignores fragments without a token', () => {
    expect(tokenFromFragment('')).toBeNull();
    expect(tokenFromFragment('#node=abc')).toBeNull();
    expect(tokenFromFragment('#mytoken=abc')).toBeNull();
  });
});
