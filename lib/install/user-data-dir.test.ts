import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectDataDir, userDataDir } from './user-data-dir';

describe('userDataDir', () => {
  it('follows each platform’s convention for per-user application data', () => {
    expect(userDataDir({ environment: {}, platform: 'linux', home: '/home/ada' })).toBe('/home/ada/.local/share/loopscope');
    expect(userDataDir({ environment: { XDG_DATA_HOME: '/data/ada' }, platform: 'linux', home: '/home/ada' })).toBe('/data/ada/loopscope');
    expect(userDataDir({ environment: {}, platform: 'darwin', home: '/Users/ada' })).toBe('/Users/ada/Library/Application Support/loopscope');
    expect(userDataDir({ environment: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, platform: 'win32', home: 'C:\\Users\\ada' })).toBe('C:\\Users\\ada\\AppData\\Local\\loopscope');
  });

  it('ignores a relative XDG_DATA_HOME, as the XDG spec says', () => {
    expect(userDataDir({ environment: { XDG_DATA_HOME: 'data' }, platform: 'linux', home: '/home/ada' })).toBe('/home/ada/.local/share/loopscope');
  });
});

describe('projectDataDir', () => {
  const settings = { environment: {}, platform: 'linux' as const, home: '/home/ada' };

  it('gives each project folder its own store, named after the folder', () => {
    const one = projectDataDir({ workDir: '/work/shop', settings });
    const other = projectDataDir({ workDir: '/play/shop', settings });
    expect(path.dirname(one)).toBe('/home/ada/.local/share/loopscope/projects');
    expect(path.basename(one)).toMatch(/^shop-[0-9a-f]{10}$/);
    expect(other).not.toBe(one);
    expect(projectDataDir({ workDir: '/work/shop/', settings })).toBe(one);
  });

  it('keeps odd characters of a folder name out of the path', () => {
    expect(path.basename(projectDataDir({ workDir: '/work/my app (2)', settings }))).toMatch(/^my_app__2_-[0-9a-f]{10}$/);
  });
});
