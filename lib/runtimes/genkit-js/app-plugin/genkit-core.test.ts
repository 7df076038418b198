import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGenkitCore } from './genkit-core';

const scratch = mkdtempSync(path.join(tmpdir(), 'loopscope-genkit-core-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package folder with a package.json and an index.js. */
function writePackage(options: { folder: string; name: string; source: string }): void {
  mkdirSync(options.folder, { recursive: true });
  writeFileSync(path.join(options.folder, 'package.json'), JSON.stringify({ name: options.name, version: '1.42.0', main: 'index.js' }));
  writeFileSync(path.join(options.folder, 'index.js'), options.source);
}

describe('loadGenkitCore', () => {
  it('finds @genkit-ai/core nested under genkit, where an import by name from the app’s loopscope does not', () => {
    // An app's tree with genkit's own packages nested under it (not hoisted), and loopscope beside genkit.
    const modules = path.join(scratch, 'app', 'node_modules');
    writePackage({ folder: path.join(modules, 'genkit'), name: 'genkit', source: "module.exports = require('@genkit-ai/core');" });
    writePackage({ folder: path.join(modules, 'genkit', 'node_modules', '@genkit-ai', 'core'), name: '@genkit-ai/core', source: "exports.getContext = () => ({ from: 'nested core' });" });
    const plugin = path.join(modules, 'loopscope', 'dist', 'lib', 'genkit.js');
    mkdirSync(path.dirname(plugin), { recursive: true });

    expect(() => createRequire(plugin).resolve('@genkit-ai/core')).toThrow(/Cannot find module '@genkit-ai\/core'/);
    expect(loadGenkitCore(plugin).getContext()).toEqual({ from: 'nested core' });
  });

  it('reads the context an ESM genkit set, though it loads the CommonJS copy of @genkit-ai/core', async () => {
    const { genkit } = await import('genkit');
    genkit({});
    const { runWithContext } = await import('@genkit-ai/core');
    const core = loadGenkitCore(import.meta.url);
    expect(core.getContext()).toBeUndefined();
    expect(runWithContext({ loopscopeStep: { runId: 'r1' } }, () => core.getContext())).toEqual({ loopscopeStep: { runId: 'r1' } });
  });
});
