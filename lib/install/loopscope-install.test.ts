import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import entryPoints from './entry-points.json';
import { builtInToolsDir, loopscopeInstall, programArguments } from './loopscope-install';

const PROJECT_DIR = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'loopscope-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder shaped like the installed package: package.json named loopscope, dist/, no lib/ sources. */
function fakePackage(): string {
  const root = path.join(scratch, 'project', 'node_modules', 'loopscope');
  mkdirSync(path.join(root, 'dist', 'bin'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'loopscope', version: '0.1.0' }));
  return root;
}

describe('loopscopeInstall', () => {
  it('finds the clone from any folder inside it, and runs it from source', () => {
    expect(loopscopeInstall(path.join(PROJECT_DIR, 'lib', 'cli'))).toEqual({ root: PROJECT_DIR, mode: 'source' });
    expect(loopscopeInstall(PROJECT_DIR)).toEqual({ root: PROJECT_DIR, mode: 'source' });
  });

  it('finds an installed package from a bundle chunk inside it, and runs it from its bundles', () => {
    const root = fakePackage();
    mkdirSync(path.join(root, 'dist', 'chunks'), { recursive: true });
    expect(loopscopeInstall(path.join(root, 'dist', 'chunks', 'chunk-X.js'))).toEqual({ root, mode: 'package' });
  });

  it('passes over a package.json of another name (the developer’s project, a dependency)', () => {
    const root = fakePackage();
    const nested = path.join(root, 'dist', 'web', 'node_modules', 'next');
    mkdirSync(nested, { recursive: true });
    writeFileSync(path.join(nested, 'package.json'), JSON.stringify({ name: 'next' }));
    expect(loopscopeInstall(nested).root).toBe(root);
  });

  it('says so when no loopscope package.json is above the folder', () => {
    expect(() => loopscopeInstall(tmpdir())).toThrow(/Loopscope's package.json was not found above/);
  });
});

describe('programArguments', () => {
  it('starts a program from its source through tsx in a clone, and its bundle alone in the package', () => {
    expect(programArguments({ install: { root: PROJECT_DIR, mode: 'source' }, program: 'runner' })).toEqual(['--import', 'tsx', path.join(PROJECT_DIR, entryPoints.programs.sources.runner)]);
    expect(programArguments({ install: { root: '/opt/loopscope', mode: 'package' }, program: 'runner' })).toEqual([path.join('/opt/loopscope', 'dist', 'bin', 'runner.js')]);
  });

  it('the built-in tools are tools/ in a clone, their bundles in the package', () => {
    expect(builtInToolsDir({ root: '/r', mode: 'source' })).toBe(path.join('/r', 'tools'));
    expect(builtInToolsDir({ root: '/r', mode: 'package' })).toBe(path.join('/r', 'dist', 'tools'));
  });
});

describe('lib/install/entry-points.json, the one list of entry points', () => {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string> | string>; files: string[]; bin: Record<string, string> };

  it('names sources that exist', () => {
    const sources = [...Object.values(entryPoints.programs.sources), ...Object.values(entryPoints.libraries.sources), entryPoints.builtInTools.source];
    for (const source of sources) expect(() => readFileSync(path.join(PROJECT_DIR, source.endsWith('.ts') ? source : path.join(source, 'scenarios', 'plain-tool-round.json')))).not.toThrow();
  });

  it('package.json exports every library of the list from its bundles, its source under the loopscope-source condition, and nothing else', () => {
    const libraries = Object.entries(entryPoints.libraries.sources);
    const expected: Record<string, unknown> = { './package.json': './package.json' };
    for (const [name, source] of libraries) {
      const bundle = `./${entryPoints.libraries.bundleDir}/${name}`;
      expected[name === 'index' ? '.' : `./${name}`] = { 'loopscope-source': `./${source}`, types: `${bundle}.d.ts`, import: `${bundle}.js`, require: `${bundle}.cjs` };
    }
    expect(manifest.exports).toEqual(expected);
    // The condition comes first: Node and TypeScript take the first condition that matches.
    for (const [name] of libraries) expect(Object.keys(manifest.exports[name === 'index' ? '.' : `./${name}`] as Record<string, string>)[0]).toBe('loopscope-source');
  });

  it('package.json ships the bundles, the launchers and this list, and no TypeScript source', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist/', 'bin/', 'scripts/start.js', 'lib/install/entry-points.json']));
    expect(manifest.files.filter((file) => file.startsWith('lib/') && file !== 'lib/install/entry-points.json')).toEqual([]);
  });
});
