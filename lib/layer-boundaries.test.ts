/**
 * The ESLint layer rule (scripts/eslint/layer-boundaries.js, wired in eslint.config.js), run
 * through ESLint's own Node API with the project's real config. Here rather than beside the
 * rule because vitest collects tests under lib/ and tools/.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const PROJECT_DIR = path.resolve(import.meta.dirname, '..');
const TABLE = 'scripts/eslint/layer-boundaries.js';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: PROJECT_DIR });
});

/** The messages ESLint reports for `code` as if it were the file `file` (project-relative). */
async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(PROJECT_DIR, file) });
  return result.messages.map((message) => ({ ruleId: message.ruleId, message: message.message, line: message.line }));
}

const layerErrors = async (file: string, code: string) => (await lint(file, code)).filter((message) => message.ruleId === 'loopscope/layer-boundaries');

describe('loopscope/layer-boundaries', () => {
  it('fails lib/spans importing lib/graph, naming both layers and the rule', async () => {
    const code = "import { buildRunGraph } from '../graph/build-run-graph';\nexport const graph = buildRunGraph;\n";
    expect(await lint('lib/spans/upward-import.ts', code)).toEqual([
      {
        ruleId: 'loopscope/layer-boundaries',
        line: 1,
        message: `lib/spans must not import lib/graph ('../graph/build-run-graph'): layers import only downward, and lib/spans may import only lib/errors (layer table: ${TABLE}).`,
      },
    ]);
    // The same line one layer up the stack is fine: the CLI sits above the graph.
    expect(await lint('lib/cli/upward-import.ts', code)).toEqual([]);
  });

  it('fails lib/graph importing lib/runner, and passes the same import from lib/server', async () => {
    const code = "import type { StepKind } from '../runner/step-protocol';\nexport type Kind = StepKind;\n";
    expect(await layerErrors('lib/graph/upward-import.ts', code)).toEqual([
      {
        ruleId: 'loopscope/layer-boundaries',
        line: 1,
        message: `lib/graph must not import lib/runner ('../runner/step-protocol'): layers import only downward, and lib/graph may import only lib/errors, lib/spans, lib/contract, lib/loop, lib/runtimes (read), lib/store (layer table: ${TABLE}).`,
      },
    ]);
    expect(await lint('lib/server/upward-import.ts', code)).toEqual([]);
  });

  it('fails components importing lib/server, and passes the same import from app/', async () => {
    const code = "import { RunRegistry } from '@/lib/server/services/run-registry';\nexport const registry = RunRegistry;\n";
    expect(await lint('components/upward-import.tsx', code)).toEqual([
      {
        ruleId: 'loopscope/layer-boundaries',
        line: 1,
        message: `components must not import lib/server ('@/lib/server/services/run-registry'): components/ run in the browser and may import only lib/errors, lib/spans, lib/contract, lib/loop, lib/runtimes (read), lib/graph (layer table: ${TABLE}).`,
      },
    ]);
    expect(await lint('app/upward-import.tsx', code)).toEqual([]);
    expect(await lint('components/allowed-import.tsx', "import { buildRunGraph } from '@/lib/graph/build-run-graph';\nexport const build = buildRunGraph;\n")).toEqual([]);
  });

  it('sees every form of import: export-from, import(), require(), import types, deep and aliased paths', async () => {
    const forms = [
      "export { buildRunGraph } from '../graph/build-run-graph';",
      "export * from '../graph/run-graph';",
      "export const later = () => import('../graph/build-run-graph');",
      "export type Graph = import('../graph/run-graph').RunGraph;",
      "export const graph = require('../graph/build-run-graph');",
      "export { buildRunGraph } from '@/lib/graph/build-run-graph';",
      "export { buildRunGraph } from '../../lib/graph/build-run-graph';",
      "export * from '../graph';",
    ];
    for (const code of forms) {
      const errors = await layerErrors('lib/spans/every-form.ts', code);
      expect(errors.map((error) => error.message.split(':')[0]), code).toEqual([expect.stringMatching(/^lib\/spans must not import lib\/graph \(/)]);
    }
    // Two folders down, `../../graph` is lib/graph again; `../graph` would be lib/spans/graph.
    expect(await layerErrors('lib/spans/nested/deep.ts', "export * from '../../graph/run-graph';")).toHaveLength(1);
    expect(await layerErrors('lib/spans/nested/deep.ts', "export * from '../span';")).toEqual([]);
  });

  it('keeps the runtime-free layers out of every folder of lib/runtimes, reading ones included: the runner learns a runtime from its engine', async () => {
    const code = "import { HAND_WRITTEN_MODEL } from '../runtimes/genkit-js/read/loopscope-markers';\nexport const model = HAND_WRITTEN_MODEL;\n";
    expect(await layerErrors('lib/runner/knows-genkit.ts', code)).toEqual([
      {
        ruleId: 'loopscope/layer-boundaries',
        line: 1,
        message: `lib/runner must not import lib/runtimes/genkit-js/read/loopscope-markers ('../runtimes/genkit-js/read/loopscope-markers'): lib/runner knows no runtime, so of lib/runtimes it imports only the files directly in it, never a runtime's folder; a runtime gives it what it needs through a seam (runtime-free layers: ${TABLE}).`,
      },
    ]);
    // The layer order alone allows it (the store sits above the reading half), and so may a test of the runner.
    expect(await layerErrors('lib/store/knows-genkit.ts', code)).toEqual([]);
    expect(await layerErrors('lib/runner/knows-genkit.test.ts', code)).toEqual([]);
    // The runtime-free files directly in lib/runtimes are what the runner asks.
    expect(await layerErrors('lib/runner/asks-dialects.ts', "import { runningToolOf } from '../runtimes/open-spans';\nexport const of = runningToolOf;\n")).toEqual([]);
    // A shared reading folder, a runtime's folder by its index, an aliased path: each layer of the table.
    const reaches = [
      ['lib/graph/knows-frameworks.ts', "export * from '../runtimes/genai-loop/loop-dialect';"],
      ['lib/replay/knows-toy.ts', "export * from '../runtimes/toy/read';"],
      ['lib/runner/knows-ai-sdk.ts', "export * from '@/lib/runtimes/ai-sdk/read/sdk-words';"],
    ];
    for (const [file, line] of reaches) expect((await layerErrors(file, line)).map((error) => error.message.split(':')[0]), line).toEqual([expect.stringMatching(/ must not import lib\/runtimes\/[a-z-]+\//)]);
  });

  it('keeps lib/ away from components/ and app/, and asks for an unknown lib/ folder to be placed', async () => {
    expect((await layerErrors('lib/graph/uses-ui.ts', "export * from '../../components/status-pill';"))[0]?.message).toContain('lib/ is framework-free and never imports components/');
    expect((await layerErrors('lib/newthing/module.ts', 'export const value = 1;\n'))[0]?.message).toBe(
      `lib/newthing is in no layer: add it to LIB_LAYERS in ${TABLE} so its imports can be checked.`,
    );
  });

  it('lets tests and testing/ helpers drive a layer through a higher one, but not the modules they test', async () => {
    const code = "import { RunnerSupervisor } from '../server/runners/runner-supervisor';\nexport const supervisor = RunnerSupervisor;\n";
    expect(await layerErrors('lib/runner/capture.test.ts', code)).toEqual([]);
    expect(await layerErrors('lib/runner/testing/harness.ts', code)).toEqual([]);
    expect(await layerErrors('lib/runner/capture.ts', code)).toHaveLength(1);
    // A module importing a testing/ helper from a higher layer is still upward.
    expect(await layerErrors('lib/spans/uses-harness.ts', "export * from '../server/testing/capture-harness';")).toHaveLength(1);
  });


  it('keeps lib/ (tests included) and components/ from importing a fixture generator, which imports lib/', async () => {
    const generatorErrors = async (file: string, code: string) => (await lint(file, code)).filter((message) => message.ruleId === 'no-restricted-imports');
    const message = "'../../scripts/fixtures/goldens' import is restricted from being used by a pattern. Fixture generators (scripts/fixtures/) sit above lib/: they import lib/, never the other way (npm run fixtures runs them).";
    expect(await generatorErrors('lib/graph/goldens.test.ts', "import '../../scripts/fixtures/goldens';\n")).toEqual([{ ruleId: 'no-restricted-imports', line: 1, message }]);
    expect(await generatorErrors('components/uses-fixtures.tsx', "export { FAMILIES } from '@/scripts/fixtures/regenerate-fixtures';\n")).toHaveLength(1);
    // The generators themselves import lib/ freely: scripts sit above it.
    expect(await lint('scripts/fixtures/some-fixtures.ts', "import { buildRunGraph } from '../../lib/graph/build-run-graph';\nexport const graph = buildRunGraph;\n")).toEqual([]);
  });
  it('keeps the existing react-hooks disable comments meaningful (the rule exists and still fires there)', async () => {
    const results = await eslint.lintFiles(['components/resume-workbench.tsx', 'components/run-graph-view.tsx', 'components/use-live-events.ts']);
    const problems = results.flatMap((result) => result.messages).filter((message) => message.ruleId === null || /Definition for rule|Unused eslint-disable/.test(message.message));
    expect(problems).toEqual([]);
    expect(results.every((result) => result.suppressedMessages.some((message) => message.ruleId === 'react-hooks/exhaustive-deps'))).toBe(true);
  });

  it('parses with TypeScript 6 while `tsc` stays TypeScript 7', async () => {
    // typescript-eslint needs TypeScript's JS compiler API, which 7 does not ship.
    const [result] = await eslint.lintText('const value: number = 1 satisfies number;\nexport { value };\n', { filePath: path.join(PROJECT_DIR, 'lib/spans/parse.ts') });
    expect(result.messages).toEqual([]);
    const tsc = execFileSync(path.join(PROJECT_DIR, 'node_modules/.bin/tsc'), ['--version'], { encoding: 'utf8' });
    expect(tsc).toMatch(/^Version 7\./);
  });
});
