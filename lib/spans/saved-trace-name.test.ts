import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, savedTraceFileName, suggestSavedName } from './saved-trace-name';

describe('suggestSavedName', () => {
  it('turns the labels pages suggest from into names the save route accepts', () => {
    expect(suggestSavedName('replay of genkit-bug-1-restart-reinterrupts.json-2026-12-01-10-00-00')).toBe('replay-of-genkit-bug-1-restart-reinterrupts.json-2026-12-01-10-00-00');
    expect(suggestSavedName('fork of trace 0123abcd')).toBe('fork-of-trace-0123abcd');
    expect(suggestSavedName('Résumé: café ☕')).toBe('Resume-cafe');
  });

  it('every suggestion passes the saved-name rule, whatever the text', () => {
    const texts = ['', ' ', '...', '../../etc/passwd', '.hidden', '-', 'a..b', '名前', '\u202e\n\t', 'x'.repeat(400), `${'.'.repeat(99)}a`, 'ok-name', 'a/b\\c'];
    for (const text of texts) {
      const name = suggestSavedName(text);
      expect(() => savedTraceFileName(name), JSON.stringify(text)).not.toThrow();
      expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    }
  });

  it('keeps a name that is already valid', () => {
    expect(suggestSavedName('parallel-pending-output-2026-12-01')).toBe('parallel-pending-output-2026-12-01');
  });
});
