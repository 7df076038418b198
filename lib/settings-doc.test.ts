import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/settings.md names every LOOPSCOPE_* environment variable the code reads, and nothing else:
 * a variable added to the code without a line there (or a line left after its code went) fails here.
 */
const ROOTS = ['lib', 'app', 'components', 'scripts', 'bin', 'go', 'tools', 'examples', 'e2e', 'bench', 'proxy.ts', 'instrumentation.ts', 'playwright.config.ts', 'next.config.js'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|go|py)$/;
/** Names that look like variables but are not read from the environment. */
const NOT_VARIABLES = new Set(['LOOPSCOPE_FIXTURE_RECORD']);

function sourceFiles(entry: string): string[] {
  const stat = statSync(entry);
  if (stat.isFile()) return SOURCE.test(entry) ? [entry] : [];
  return readdirSync(entry)
    .filter((name) => name !== 'node_modules' && name !== '__fixtures__' && name !== '__goldens__' && !name.startsWith('.'))
    .flatMap((name) => sourceFiles(path.join(entry, name)));
}

const names = (text: string) => new Set(text.match(/\bLOOPSCOPE_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);

describe('docs/settings.md', () => {
  const inCode = new Set<string>();
  for (const file of ROOTS.flatMap(sourceFiles)) {
    if (file.endsWith('settings-doc.test.ts')) continue;
    for (const name of names(readFileSync(file, 'utf8'))) if (!NOT_VARIABLES.has(name)) inCode.add(name);
  }
  const documented = names(readFileSync('docs/settings.md', 'utf8'));

  it('names every LOOPSCOPE_* variable the code reads', () => {
    expect(inCode.size).toBeGreaterThan(20);
    expect([...inCode].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it('names no variable the code does not read', () => {
    expect([...documented].filter((name) => !inCode.has(name)).sort()).toEqual([]);
  });
});
