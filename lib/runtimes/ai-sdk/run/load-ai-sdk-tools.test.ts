import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAiSdkTools } from './load-ai-sdk-tools';

// Inside the project, so the modules resolve `ai` and `zod` from its node_modules.
const scratch = path.resolve('.loopscope-test', `ai-sdk-tools-${process.pid}-${Date.now()}`);

const TOOL = (name: string) => `${name}: tool({ description: '${name}', inputSchema: z.object({ x: z.number() }), execute: async ({ x }) => ({ x }) })`;
const MODULE = (body: string) => `import { tool } from 'ai';\nimport { z } from 'zod';\n${body}\n`;

beforeAll(async () => {
  await mkdir(scratch, { recursive: true });
  const files: Record<string, string> = {
    'good.ts': MODULE(`export default { ${TOOL('alpha')}, ${TOOL('beta')} };\nexport const toolApproval = { alpha: (input: { x: number }) => (input.x > 1 ? 'user-approval' : 'approved') };`),
    'broken.ts': MODULE(`throw new Error('the module blew up at import');`),
    'a-function.ts': MODULE(`export default () => [];`),
    'not-tools.ts': MODULE(`export default { gamma: 42 };`),
    'clash-one.ts': MODULE(`export default { ${TOOL('shared')} };`),
    'clash-two.ts': MODULE(`export default { ${TOOL('shared')}, ${TOOL('delta')} };`),
    'stray-policy.ts': MODULE(`export default { ${TOOL('epsilon')} };\nexport const toolApproval = { nowhere: () => 'approved' };`),
    'bad-policy.ts': MODULE(`export default { ${TOOL('zeta')} };\nexport const toolApproval = { zeta: 'approved' };`),
    'skipped.test.ts': MODULE(`throw new Error('tests are not tool modules');`),
    'notes.md': 'not a module',
  };
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(scratch, file), text);
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

describe('loadAiSdkTools', () => {
  it('loads the good modules, names each bad one, and keeps neither copy of a duplicated name', async () => {
    const catalog = await loadAiSdkTools(scratch);
    expect(Object.keys(catalog.tools).sort()).toEqual(['alpha', 'beta', 'delta', 'epsilon']);
    expect(catalog.files).toMatchObject({ alpha: 'good.ts', delta: 'clash-two.ts' });
    expect(Object.keys(catalog.policies)).toEqual(['alpha']);
    const problems = Object.fromEntries(catalog.problems.map((problem) => [problem.file, problem.message]));
    expect(Object.keys(problems).sort()).toEqual(['a-function.ts', 'bad-policy.ts', 'broken.ts', 'clash-two.ts', 'not-tools.ts', 'stray-policy.ts']);
    expect(problems['broken.ts']).toMatch(/blew up at import/);
    expect(problems['a-function.ts']).toMatch(/default export must be a record of AI SDK tools/);
    expect(problems['not-tools.ts']).toMatch(/not an AI SDK tool.*gamma/);
    expect(problems['clash-two.ts']).toBe('tool "shared" is defined in both clash-one.ts and clash-two.ts: rename one (neither is loaded)');
    expect(problems['stray-policy.ts']).toMatch(/toolApproval names "nowhere"/);
    expect(problems['bad-policy.ts']).toMatch(/not a function: zeta/);
  });

  it('a policy is the module’s own function, called with the input', async () => {
    const catalog = await loadAiSdkTools(scratch);
    const policy = catalog.policies.alpha as unknown as (input: { x: number }) => unknown;
    expect([policy({ x: 1 }), policy({ x: 5 })]).toEqual(['approved', 'user-approval']);
  });

  it('no tools/ai-sdk/ folder is no problem; the shipped folder loads cleanly', async () => {
    expect(await loadAiSdkTools(path.join(scratch, 'missing'))).toEqual({ tools: {}, policies: {}, files: {}, problems: [] });
    const shipped = await loadAiSdkTools(path.resolve('tools', 'ai-sdk'));
    expect(shipped.problems).toEqual([]);
    expect(Object.keys(shipped.tools).sort()).toEqual(['askUser', 'checkInventory', 'convertTemperature', 'getWeather', 'lookupCustomer', 'searchDocs', 'transferMoney', 'webSearch']);
    expect(Object.keys(shipped.policies)).toEqual(['transferMoney']);
  });
});
