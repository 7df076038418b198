import path from 'node:path';
import { builtInToolsDir, type LoopscopeInstall } from './loopscope-install';
import { projectDataDir, type UserDataSettings } from './user-data-dir';

/** The folders Loopscope reads and writes (docs/settings.md). */
export interface LoopscopePaths {
  /** Captured traces, the store, caches, the built Go runner. */
  dataDir: string;
  /** Saved trace files (the Save button, `resume`'s output). */
  savedDir: string;
  /** The tool modules the built-in runner loads (their scenarios in `scenarios/` inside it). */
  toolsDir: string;
}

/**
 * Where the data goes, from LOOPSCOPE_DATA_DIR, LOOPSCOPE_TRACES_DIR and LOOPSCOPE_TOOLS_DIR
 * (relative ones from `workDir`, the folder the command was typed in), else by the install:
 * - a clone keeps everything in itself, as it always has: `.loopscope/`, `traces/`, `tools/`;
 * - an installed package writes captured data to the per-user data folder (user-data-dir.ts),
 *   never into node_modules or the developer's project; saved traces go to `traces/` in the
 *   developer's folder (created at the first save: saving is asking for a file there); the
 *   built-in runner loads the example tools shipped in the package.
 */
export function loopscopePaths(options: { install: LoopscopeInstall; workDir: string; environment: Readonly<Record<string, string | undefined>>; userData?: UserDataSettings }): LoopscopePaths {
  const { install, workDir, environment } = options;
  const fromSetting = (value: string | undefined) => (value ? path.resolve(/* turbopackIgnore: true */ workDir, value) : undefined);
  const packaged = install.mode === 'package';
  return {
    dataDir: fromSetting(environment.LOOPSCOPE_DATA_DIR) ?? (packaged ? projectDataDir({ workDir, settings: options.userData }) : path.join(/* turbopackIgnore: true */ install.root, '.loopscope')),
    savedDir: fromSetting(environment.LOOPSCOPE_TRACES_DIR) ?? path.join(/* turbopackIgnore: true */ packaged ? workDir : install.root, 'traces'),
    toolsDir: fromSetting(environment.LOOPSCOPE_TOOLS_DIR) ?? builtInToolsDir(install),
  };
}
