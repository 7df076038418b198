/**
 * The agent-framework fixture apps of scripts/fixtures/frameworks/<framework>/, as the recorders
 * and the tests run them: what the app's `fixture.json` says (the contract is
 * scripts/fixtures/frameworks/README.md) and the interpreter that runs its scripts — its venv
 * (scripts/ensure-venv.js) or its installed packages and the Node it pins
 * (scripts/ensure-node-app.js), made on first use outside the repository (minutes on a fresh
 * machine, at once after), so the tests run in `npm test` anywhere. One place for both, so the span
 * recorder, the answer-probe recorder and the tests run an app the same way.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { LoopscopeError } from '../../errors';
import { PROJECT_DIR } from './framework-fixtures';

/** The folder the framework apps live in. */
export const FRAMEWORKS_DIR = path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks');

/** An app's fixture.json. */
export const FrameworkAppSchema = z.object({
  /** The runtime folder its fixtures go to: lib/runtimes/<runtime>/__fixtures__/. */
  runtime: z.string().regex(/^[a-z][a-z0-9-]*$/),
  language: z.enum(['python', 'node']),
  /** Arguments after the interpreter (cwd: the framework's folder); the case name is appended. */
  run: z.array(z.string()).min(1),
  cases: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/)).min(1),
  /** Extra environment for every case (e.g. a content-capture switch). */
  env: z.record(z.string(), z.string()).optional(),
  /**
   * Node apps only: the Node major version the app needs when it is not the current one (Mastra
   * needs Node >= 22.13). The app pins npm's `node` package at that version in its own
   * package.json, and runs with that binary (node_modules/.bin/node), fetched through the npm registry.
   */
  node: z.string().regex(/^[0-9]+$/).optional(),
});

/** One framework app: its folder name, its folder, and what its fixture.json says. */
export type FrameworkApp = z.infer<typeof FrameworkAppSchema> & { framework: string; folder: string };

/**
 * The app of scripts/fixtures/frameworks/<framework>/.
 * @throws LoopscopeError NOT_FOUND without that folder's fixture.json, INVALID_ARGUMENT when it breaks the contract.
 */
export function frameworkApp(framework: string): FrameworkApp {
  const folder = path.join(FRAMEWORKS_DIR, framework);
  const file = path.join(folder, 'fixture.json');
  if (!existsSync(file)) throw new LoopscopeError('NOT_FOUND', `no framework app scripts/fixtures/frameworks/${framework}/ (with a fixture.json)`);
  const parsed = FrameworkAppSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LoopscopeError('INVALID_ARGUMENT', `${path.relative(PROJECT_DIR, file)}: ${issue?.message} at ${issue?.path.join('.')}`, { cause: parsed.error });
  }
  return { ...parsed.data, framework, folder };
}

const INSTALL_TIMEOUT_MS = 900_000;

/**
 * Runs one of the project's install scripts (scripts/ensure-*.js) for the app and returns what it
 * printed last; `progress`: its log goes to this process's stderr as it comes (a recorder run by
 * hand), else it is kept for the error.
 */
async function ensure(options: { app: FrameworkApp; script: string; progress: boolean }): Promise<string> {
  const child = spawn(process.execPath, [path.join(PROJECT_DIR, 'scripts', options.script), options.app.folder, '--name', `fixtures-${options.app.runtime}`], {
    stdio: ['ignore', 'pipe', options.progress ? 'inherit' : 'pipe'],
    timeout: INSTALL_TIMEOUT_MS,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (status !== 0) throw new LoopscopeError('FAILED_PRECONDITION', `scripts/${options.script} could not install ${options.app.framework}'s packages (exit ${status})${stderr ? `:\n${stderr.slice(-3000)}` : ''}`);
  return stdout.trim().split('\n').pop() ?? '';
}

/**
 * The command that runs the app's scripts, its packages installed first when they are not yet:
 * its venv's python, or the Node it pins (else this Node). `progress`: the install's log is shown as it comes.
 * @throws LoopscopeError FAILED_PRECONDITION when the install fails or the pinned Node is not the version the app names.
 */
export async function frameworkInterpreter(app: FrameworkApp, options: { progress?: boolean } = {}): Promise<string> {
  const progress = options.progress ?? false;
  if (app.language === 'python') return ensure({ app, script: 'ensure-venv.js', progress });
  await ensure({ app, script: 'ensure-node-app.js', progress });
  if (app.node === undefined) return process.execPath;
  const pinned = path.join(app.folder, 'node_modules', '.bin', 'node');
  if (!existsSync(pinned)) throw new LoopscopeError('FAILED_PRECONDITION', `${app.runtime} needs Node ${app.node}: pin npm's "node" package at ${app.node}.x in ${path.join(app.folder, 'package.json')}`);
  const { stdout } = await promisify(execFile)(pinned, ['--version'], { encoding: 'utf8' });
  const version = stdout.trim();
  if (!version.startsWith(`v${app.node}.`)) throw new LoopscopeError('FAILED_PRECONDITION', `${pinned} is Node ${version}, ${app.runtime} needs Node ${app.node}`);
  return pinned;
}

/**
 * A recorded value without the machine's paths: the project folder and the home folder in every
 * string become `<project>` and `<home>` (they say where a fixture was made, not what the framework did).
 */
export function withoutLocalPaths<Value>(value: Value): Value {
  if (typeof value === 'string') return value.split(PROJECT_DIR).join('<project>').split(os.homedir()).join('<home>') as Value;
  if (Array.isArray(value)) return value.map(withoutLocalPaths) as Value;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value)) copy[key] = withoutLocalPaths(item);
    return copy as Value;
  }
  return value;
}
