import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './runtimes/index';

/**
 * Knowledge of a runtime lives in its folder (lib/runtimes/<id>/): nothing else names one. Outside
 * lib/runtimes/, no module of lib/, components/ or app/ writes a runtime's id as a string or
 * imports a runtime's id constant (`*_DIALECT_ID`): code that needs to act differently per runtime
 * asks the runtime's dialect, view or driver instead. Tests and testing helpers may name runtimes
 * (they are fixtures); so do the wire's schema definitions listed below, which spell the formats
 * the runtimes' files and attached apps use.
 */
const WIRE_DEFINITIONS = new Set([
  // The scenario file formats (`"runtime": "ai-sdk"`) and the default of a file that names none.
  'lib/contract/scenario.ts',
  'lib/contract/ai-sdk-scenario.ts',
  // The kinds of attached genkit apps, as genkit's runtime files name their language.
  'lib/contract/runtimes.ts',
]);

const RUNTIME_IDS = [...new Set([...DIALECTS.map((dialect) => dialect.id), 'genkit-python'])];

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'components', 'app'], { encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .filter((file) => !file.startsWith('lib/runtimes/') && !/\.test\.tsx?$/.test(file) && !file.includes('/testing/') && !file.includes('__fixtures__') && !WIRE_DEFINITIONS.has(file));
}

/** Code without its comments (a doc comment may name a runtime as an example). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The places a file's code names a runtime: an id as a string literal, or a runtime's id constant. */
function runtimeNamings(source: string): string[] {
  const text = withoutComments(source);
  const found: string[] = [];
  for (const id of RUNTIME_IDS) {
    for (const quote of ["'", '"', '`']) if (text.includes(`${quote}${id}${quote}`)) found.push(`${quote}${id}${quote}`);
  }
  for (const match of text.matchAll(/\b[A-Z_]+_DIALECT_ID\b/g)) found.push(match[0]);
  return [...new Set(found)];
}

describe('runtime ids outside lib/runtimes/', () => {
  it('finds an id literal and an id constant, and nothing in runtime-free code', () => {
    expect(runtimeNamings("if (scenario.runtime === 'ai-sdk') return;\nimport { GENKIT_GO_DIALECT_ID } from '../runtimes/genkit-go/read/dialect-id';")).toEqual(["'ai-sdk'", 'GENKIT_GO_DIALECT_ID']);
    expect(runtimeNamings("const view = runtimeView(scenarioRuntime(scenario));\nconst driver = driverOf(read.runtime);")).toEqual([]);
    expect(runtimeNamings("/** `genkit-js`: an example in a doc comment. */\nconst id = runtime; // 'ai-sdk' in a comment")).toEqual([]);
  });

  it('no module of lib/ (outside lib/runtimes/), components/ or app/ names a runtime', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(200);
    const named = files.flatMap((file) => runtimeNamings(readFileSync(file, 'utf8')).map((naming) => `${file}: ${naming}`));
    expect(named).toEqual([]);
  });
});
