/**
 * A developer's project with Loopscope installed from its tarball, as a new user makes one: `npm
 * pack` in the clone (its prepack builds dist/), a fresh folder holding a genkit JS app that knows
 * nothing of Loopscope, `npm i genkit`, `npm i -D ./loopscope-*.tgz` — or one holding an AI SDK
 * app and no genkit at all. For e2e/package.spec.ts and bench/package.bench.ts.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CLONE_DIR = path.resolve(import.meta.dirname, '../../..');
const APPS_DIR = path.join(import.meta.dirname, 'apps');
const AI_SDK_APP_DIR = path.join(import.meta.dirname, 'ai-sdk-app');
/** The genkit the projects install: the clone's own (so the npm cache has it). */
export const PROJECT_GENKIT_VERSION = '1.42.0';

/** The version of a package the clone has installed (the npm cache has it). */
function cloneVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(CLONE_DIR, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** An environment as a terminal has it: none of Loopscope's, the e2e server's or genkit's settings. */
export function terminalEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(environment)) {
    if (/^(LOOPSCOPE_|GENKIT_|npm_)/.test(key) || ['PORT', 'INIT_CWD', 'NODE_OPTIONS', 'NODE_ENV'].includes(key)) delete environment[key];
  }
  return { ...environment, ...extra };
}

/**
 * `npm pack` in the clone into `destination`: runs prepack (scripts/build-package.ts) unless
 * `skipBuild` (dist/ is already built). Returns the tarball and how long it took.
 */
export async function packLoopscope(options: { destination: string; skipBuild?: boolean }): Promise<{ tarball: string; seconds: number }> {
  const started = performance.now();
  mkdirSync(options.destination, { recursive: true });
  await run('npm', ['pack', '--pack-destination', options.destination, ...(options.skipBuild ? ['--ignore-scripts'] : [])], { cwd: CLONE_DIR, env: terminalEnvironment(), maxBuffer: 256 << 20, timeout: 900_000 });
  // npm's name for an unscoped package's tarball (the build's own output shares stdout with npm's).
  const { name, version } = JSON.parse(readFileSync(path.join(CLONE_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
  return { tarball: path.join(options.destination, `${name}-${version}.tgz`), seconds: (performance.now() - started) / 1000 };
}

/**
 * How better-sqlite3 (Loopscope's one native dependency) gets its binary: `install-script` runs
 * its install script as npm does (prebuild-install downloads the binary from GitHub, else
 * node-gyp compiles it: minutes on a machine that cannot reach GitHub, like this one); `copy`
 * skips install scripts and puts in the same version's binary the clone built for this Node —
 * the file prebuild-install would have downloaded.
 */
export type NativeBinary = 'install-script' | 'copy';

/** Runs npm in the project, from the warm cache (--prefer-offline), and times it. */
async function npm(options: { project: string; args: string[] }): Promise<number> {
  const started = performance.now();
  await run('npm', [...options.args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: options.project, env: terminalEnvironment(), maxBuffer: 64 << 20, timeout: 900_000 });
  return (performance.now() - started) / 1000;
}

/** A fresh project folder with the genkit app (apps/*): package.json, `npm i genkit`. Returns the install's seconds. */
export async function createGenkitProject(project: string): Promise<{ genkitInstallSeconds: number }> {
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'weather-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  for (const file of readdirSync(APPS_DIR)) cpSync(path.join(APPS_DIR, file), path.join(project, file));
  return { genkitInstallSeconds: await npm({ project, args: ['install', `genkit@${PROJECT_GENKIT_VERSION}`] }) };
}

/**
 * A fresh project folder with the AI SDK app (ai-sdk-app/): package.json, `npm i ai zod` (the
 * clone's versions), no genkit anywhere in it. Returns the install's seconds.
 */
export async function createAiSdkProject(project: string): Promise<{ aiInstallSeconds: number }> {
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'trip-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  for (const file of readdirSync(AI_SDK_APP_DIR)) cpSync(path.join(AI_SDK_APP_DIR, file), path.join(project, file));
  return { aiInstallSeconds: await npm({ project, args: ['install', `ai@${cloneVersion('ai')}`, `zod@${cloneVersion('zod')}`] }) };
}

/** `npm i -D <tarball>` in the project. Returns the install's seconds. */
export async function installTarball(options: { project: string; tarball: string; native: NativeBinary }): Promise<{ seconds: number }> {
  const seconds = await npm({ project: options.project, args: ['install', '--save-dev', options.tarball, ...(options.native === 'copy' ? ['--ignore-scripts'] : [])] });
  if (options.native === 'copy') {
    const release = path.join(options.project, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(release, { recursive: true });
    copyFileSync(path.join(CLONE_DIR, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), path.join(release, 'better_sqlite3.node'));
  }
  return { seconds };
}

/** A command running in the project as its own process group (it and what it starts end together). */
export interface ProjectCommand {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Ctrl+C in the terminal: SIGINT to the group, SIGKILL after 10 s; resolves once the group is gone, saying which ended it. */
  interrupt(): Promise<'exited' | 'killed'>;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `command args…` in the project the way a terminal would (npx finds node_modules/.bin). */
export function startInProject(options: { project: string; command: string; args: string[]; env?: Record<string, string> }): ProjectCommand {
  const child = spawn(options.command, options.args, { cwd: options.project, env: terminalEnvironment(options.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const pid = child.pid as number;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // gone already
    }
  };
  const interrupt = async (): Promise<'exited' | 'killed'> => {
    if (!groupAlive(pid)) return 'exited';
    signal('SIGINT');
    for (let waited = 0; waited < 10_000 && groupAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!groupAlive(pid)) return 'exited';
    signal('SIGKILL');
    return 'killed';
  };
  return { child, output: () => output, interrupt };
}

/** Polls `probe` every 50 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(options: { what: string; probe: () => Promise<T | undefined>; timeoutMs?: number }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await options.probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
