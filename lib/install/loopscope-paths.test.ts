import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopscopePaths } from './loopscope-paths';

const userData = { environment: {}, platform: 'linux' as const, home: '/home/ada' };
const clone = { root: '/src/loopscope', mode: 'source' as const };
const installed = { root: '/work/shop/node_modules/loopscope', mode: 'package' as const };

describe('loopscopePaths', () => {
  it('a clone keeps its data, saved traces and tools in itself, wherever the command was typed', () => {
    expect(loopscopePaths({ install: clone, workDir: '/work/shop', environment: {}, userData })).toEqual({
      dataDir: '/src/loopscope/.loopscope',
      savedDir: '/src/loopscope/traces',
      toolsDir: '/src/loopscope/tools',
    });
  });

  it('an installed package writes neither into node_modules nor into the project, except saved traces', () => {
    const paths = loopscopePaths({ install: installed, workDir: '/work/shop', environment: {}, userData });
    expect(paths.dataDir).toMatch(/^\/home\/ada\/\.local\/share\/loopscope\/projects\/shop-[0-9a-f]{10}$/);
    expect(paths.savedDir).toBe('/work/shop/traces');
    expect(paths.toolsDir).toBe('/work/shop/node_modules/loopscope/dist/tools');
    expect(paths.dataDir.startsWith(installed.root)).toBe(false);
  });

  it('the settings win, relative ones taken from the folder the command was typed in', () => {
    const environment = { LOOPSCOPE_DATA_DIR: '.debug/data', LOOPSCOPE_TRACES_DIR: '/tmp/saved', LOOPSCOPE_TOOLS_DIR: 'my-tools' };
    for (const install of [clone, installed]) {
      expect(loopscopePaths({ install, workDir: '/work/shop', environment, userData })).toEqual({
        dataDir: path.resolve('/work/shop/.debug/data'),
        savedDir: '/tmp/saved',
        toolsDir: path.resolve('/work/shop/my-tools'),
      });
    }
  });
});
