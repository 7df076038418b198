/**
 * Where Loopscope's own files are, and whether they are TypeScript sources (a clone, run through
 * tsx) or the prebuilt package (`npm pack` → `npm i -D ./loopscope-*.tgz` in a developer's
 * project: dist/ bundles, no TypeScript loader, no dev dependencies). docs/adr/0010-prebuilt-package.md.
 *
 * The rule is one: a program's TypeScript source present → run it from source; absent → run its
 * bundle. A clone that once ran `npm pack` (and so has dist/) keeps running its sources; the
 * package ships no lib/ sources, so it always runs the bundles.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import entryPoints from './entry-points.json';

export type ProgramName = keyof typeof entryPoints.programs.sources;
export type LibraryName = keyof typeof entryPoints.libraries.sources;

/** A Loopscope installation: its root folder and how its programs run. */
export interface LoopscopeInstall {
  /** The package root: package.json, go/runner, tools/go, and .next (clone) or dist/ (package). */
  root: string;
  /** `source` in a clone (TypeScript through tsx), `package` in an installed tarball (bundles). */
  mode: 'source' | 'package';
}

/** Loopscope's package name: the root is the nearest folder up whose package.json has it. */
const PACKAGE_NAME = 'loopscope';

/**
 * The installation `start` is in (a file or folder inside it: the server's working folder, a
 * module's own path). Walks up to the package.json named `loopscope`.
 * @throws Error when no such package.json is above `start` (Loopscope's files were moved apart).
 */
export function loopscopeInstall(start: string): LoopscopeInstall {
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    const manifest = path.join(/* turbopackIgnore: true */ folder, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === PACKAGE_NAME) {
      return { root: folder, mode: existsSync(path.join(/* turbopackIgnore: true */ folder, entryPoints.programs.sources.cli)) ? 'source' : 'package' };
    }
    if (path.dirname(folder) === folder) throw new Error(`Loopscope's package.json was not found above ${start}: its files must stay together as installed.`);
  }
}

function packageName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

/**
 * The node arguments that start one of Loopscope's programs: `--import tsx <source>` in a clone
 * (tsx resolved from the child's working folder, which must be the root), the bundle otherwise.
 */
export function programArguments(options: { install: LoopscopeInstall; program: ProgramName }): string[] {
  const { install, program } = options;
  if (install.mode === 'source') return ['--import', 'tsx', path.join(/* turbopackIgnore: true */ install.root, entryPoints.programs.sources[program])];
  return [path.join(/* turbopackIgnore: true */ install.root, entryPoints.programs.bundleDir, `${program}.js`)];
}

/** The folder of the built-in example tools (and their scenarios/): tools/ in a clone, their bundles in the package. */
export function builtInToolsDir(install: LoopscopeInstall): string {
  return path.join(/* turbopackIgnore: true */ install.root, install.mode === 'source' ? entryPoints.builtInTools.source : entryPoints.builtInTools.bundleDir);
}
