import { fileURLToPath } from 'node:url';
import { loopscopeInstall, type LoopscopeInstall } from '../install/loopscope-install';
import { loopscopePaths, type LoopscopePaths } from '../install/loopscope-paths';

/** The installation this command runs from: found from this module's own file (a source in a clone, a bundle chunk in the package). */
export function cliInstall(): LoopscopeInstall {
  return loopscopeInstall(fileURLToPath(import.meta.url));
}

/**
 * The command's folders (lib/install/loopscope-paths.ts), relative settings from the folder it
 * was typed in: the same defaults as the server's, so a trace `resume` stores lands where
 * `loopscope start` shows it.
 */
export function cliPaths(install: LoopscopeInstall = cliInstall()): LoopscopePaths {
  return loopscopePaths({ install, workDir: process.cwd(), environment: process.env });
}
