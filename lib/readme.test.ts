import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The README is a front door: what Loopscope is, the two commands, links. Everything else lives in docs/. */
describe('README.md', () => {
  it('stays within 150 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(150);
  });

  it('gives the two commands: install and start; install and test', () => {
    const text = readFileSync('README.md', 'utf8');
    expect(text).toContain('npm ci && npm run build && npm start');
    expect(text).toContain('npm ci && npm test');
  });
});
