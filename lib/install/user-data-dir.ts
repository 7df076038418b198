import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** What the per-user data folder depends on (the real process's by default; tests pass their own). */
export interface UserDataSettings {
  environment: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  home: string;
}

const currentSettings = (): UserDataSettings => ({ environment: process.env, platform: process.platform, home: os.homedir() });

/**
 * The per-user folder an installed Loopscope keeps its data in, by the platform's convention:
 * `$XDG_DATA_HOME/loopscope` (default `~/.local/share/loopscope`), `~/Library/Application
 * Support/loopscope` on macOS, `%LOCALAPPDATA%\loopscope` on Windows. Never inside
 * node_modules (an `npm ci` would wipe it) nor in the developer's project (it is not theirs).
 */
export function userDataDir(settings: UserDataSettings = currentSettings()): string {
  const { environment, platform, home } = settings;
  if (platform === 'win32') return path.win32.join(environment.LOCALAPPDATA ?? path.win32.join(home, 'AppData', 'Local'), 'loopscope');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'loopscope');
  const xdg = environment.XDG_DATA_HOME;
  // The XDG spec: a relative XDG_DATA_HOME is invalid and is ignored.
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.local', 'share'), 'loopscope');
}

/**
 * The data folder of one project inside the per-user folder: `projects/<folder name>-<hash of
 * its path>`. One store per project, so two projects' `loopscope start` never share a SQLite
 * file, and the folder name says whose it is.
 */
export function projectDataDir(options: { workDir: string; settings?: UserDataSettings }): string {
  const workDir = path.resolve(options.workDir);
  const hash = createHash('sha256').update(workDir).digest('hex').slice(0, 10);
  const name = path.basename(workDir).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return path.join(userDataDir(options.settings), 'projects', `${name}-${hash}`);
}
