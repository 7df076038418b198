/**
 * docs/style.md's "Functions with more than two inputs take one named-object parameter", as
 * eslint.config.js checks it (max-params at 2), run through ESLint's own Node API with the
 * project's real config. Here, beside lib/layer-boundaries.test.ts, because vitest collects
 * tests under lib/ and tools/.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const PROJECT_DIR = path.resolve(import.meta.dirname, '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: PROJECT_DIR });
});

/** The max-params messages ESLint reports for `code` as if it were the file `file` (project-relative). */
async function paramErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(PROJECT_DIR, file) });
  return result.messages.filter((message) => message.ruleId === null || /max-params$/.test(message.ruleId)).map((message) => ({ ruleId: message.ruleId, line: message.line, message: message.message }));
}

const POSITIONAL = [
  'export function summarize(traceId: string, spans: string[], label: string): string {',
  '  return `${traceId}${spans.length}${label}`;',
  '}',
  '',
].join('\n');
const NAMED = [
  'export function summarize({ traceId, spans, label }: { traceId: string; spans: string[]; label: string }): string {',
  '  return `${traceId}${spans.length}${label}`;',
  '}',
  '',
].join('\n');

describe('max-params (docs/style.md: more than two inputs take one named object)', () => {
  it('fails a function of three positional parameters in lib/, and passes the same inputs as one object', async () => {
    expect(await paramErrors('lib/spans/summarize.ts', POSITIONAL)).toEqual([
      { ruleId: '@typescript-eslint/max-params', line: 1, message: "Function 'summarize' has too many parameters (3). Maximum allowed is 2." },
    ]);
    expect(await paramErrors('lib/spans/summarize.ts', NAMED)).toEqual([]);
  });

  it('counts optional and defaulted parameters, and sees arrow functions, methods and constructors in every source folder', async () => {
    const cases: [string, string][] = [
      ['lib/graph/node.ts', 'export const toolNode = (call: string, generateId: string, running = false) => `${call}${generateId}${running}`;\n'],
      ['lib/server/cache.ts', 'export class Cache {\n  span(file: string, traceId: string, spanId?: string): string {\n    return file + traceId + spanId;\n  }\n}\n'],
      ['lib/runner/timeout.ts', 'export class Timeout extends Error {\n  constructor(tool: string, ref: string | undefined, limitMs: number) {\n    super(`${tool}${ref}${limitMs}`);\n  }\n}\n'],
      ['components/use-thing.ts', 'export function useThing(filter: object, onEvent: () => void, onReady?: () => void): void {\n  void [filter, onEvent, onReady];\n}\n'],
      ['app/api/thing/route.ts', 'export async function POST(request: Request, context: unknown, extra: unknown): Promise<Response> {\n  return Response.json([request.url, context, extra]);\n}\n'],
      ['bench/thing.ts', 'export function time(label: string, run: () => void, rounds = 9): void {\n  for (let i = 0; i < rounds; i++) run();\n  void label;\n}\n'],
      ['scripts/thing.js', 'export function copy(from, to, options) {\n  return [from, to, options];\n}\n'],
    ];
    for (const [file, code] of cases) {
      const errors = await paramErrors(file, code);
      expect(errors.map((error) => error.message), file).toEqual([expect.stringMatching(/has too many parameters \(3\)\. Maximum allowed is 2\.$/)]);
    }
    // Two positional parameters are fine, and so is a single options object beside them.
    expect(await paramErrors('lib/spans/parse.ts', 'export const parse = (text: string, options: { what?: string } = {}) => text + (options.what ?? "");\n')).toEqual([]);
  });

  it('leaves tests and fixtures alone', async () => {
    expect(await paramErrors('lib/spans/summarize.test.ts', POSITIONAL)).toEqual([]);
    expect(await paramErrors('lib/graph/__fixtures__/make.ts', POSITIONAL)).toEqual([]);
  });

  it('keeps exactly the deliberate exceptions, each under a disable comment that still suppresses the rule', async () => {
    const results = await eslint.lintFiles(['lib', 'components', 'app', 'scripts', 'bench']);
    const unused = results.flatMap((result) => result.messages).filter((message) => message.ruleId === null || /Unused eslint-disable/.test(message.message));
    expect(unused).toEqual([]);
    const suppressed: Record<string, number> = {};
    for (const result of results) {
      const count = result.suppressedMessages.filter((message) => message.ruleId !== null && /max-params$/.test(message.ruleId)).length;
      if (count > 0) suppressed[path.relative(PROJECT_DIR, result.filePath)] = count;
    }
    expect(suppressed).toEqual({
      'lib/errors.ts': 1, // LoopscopeError(code, message, { cause }): Error's (message, options) shape
      'lib/store/atomic-write.ts': 1, // writeFileAtomic(target, data, options): fs.writeFile's shape
      'lib/runtimes/genkit-js/replay/run-replay.ts': 1, // genkit's middleware hook (request, context, next)
      'lib/runtimes/genkit-js/run/run-generate.ts': 1, // the same
      'lib/runtimes/genkit-js/run/genkit-step-middleware.ts': 2, // the same, for model and tool
      'lib/server/http/start-http-servers.ts': 1, // node:http's 'upgrade' event (request, socket, head)
      'lib/server/attach/testing/attached-app-harness.ts': 1, // the same
      'scripts/eslint/load-typescript-eslint.js': 1, // Node's Module._resolveFilename, replaced in place
    });
  }, 60_000);
});
