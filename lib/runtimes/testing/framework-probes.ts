/**
 * The fixture apps' scripts that ask a real framework what it does with an answer, for the rules
 * tests, in both languages: `probe_answer.py` / `probe_answer.mjs` (the pause made offline, one
 * answer sent through the framework's own API: scripts/fixtures/frameworks/README.md) and
 * `run_snippet.py` / `run_snippet.mjs` (the pause made offline, then Loopscope's answer code run
 * as the app would run it). The interpreter is the app's own: its venv (scripts/ensure-venv.js) or
 * its installed packages and pinned Node (scripts/ensure-node-app.js), made on first use — minutes
 * on a fresh machine, instant after — so the tests run in `npm test` anywhere.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_DIR } from './framework-fixtures';

const folderOf = (framework: string) => path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', framework);

/** What runs a framework's scripts: its interpreter and the scripts' extension. */
export interface FrameworkInterpreter {
  framework: string;
  command: string;
  extension: 'py' | 'mjs';
}

/** The framework app's interpreter, installed first when it is not yet (its venv, or its packages and the Node it pins). */
export async function frameworkInterpreter(framework: string): Promise<FrameworkInterpreter> {
  const app = JSON.parse(readFileSync(path.join(folderOf(framework), 'fixture.json'), 'utf8')) as { runtime: string; language: 'python' | 'node'; node?: string };
  const name = `fixtures-${app.runtime}`;
  const run = promisify(execFile);
  if (app.language === 'python') {
    const { stdout } = await run(process.execPath, [path.join(PROJECT_DIR, 'scripts', 'ensure-venv.js'), folderOf(framework), '--name', name], { timeout: 900_000, maxBuffer: 8 << 20 });
    return { framework, command: stdout.trim().split('\n').pop() as string, extension: 'py' };
  }
  await run(process.execPath, [path.join(PROJECT_DIR, 'scripts', 'ensure-node-app.js'), folderOf(framework), '--name', name], { timeout: 900_000, maxBuffer: 8 << 20 });
  const pinned = path.join(folderOf(framework), 'node_modules', '.bin', 'node');
  return { framework, command: app.node !== undefined && existsSync(pinned) ? pinned : process.execPath, extension: 'mjs' };
}

/**
 * Runs one of the framework's scripts (`probe_answer`, `run_snippet`) with one JSON request on
 * stdin, offline (no exporter endpoint, no model key), and returns the JSON line it printed last.
 */
export async function runFrameworkScript(options: { interpreter: FrameworkInterpreter; script: 'probe_answer' | 'run_snippet'; input: unknown }): Promise<Record<string, unknown>> {
  const { interpreter } = options;
  const child = execFile(interpreter.command, [`${options.script}.${interpreter.extension}`], {
    cwd: folderOf(interpreter.framework),
    timeout: 180_000,
    maxBuffer: 16 << 20,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', OTEL_SDK_DISABLED: 'true' } as unknown as NodeJS.ProcessEnv,
  });
  child.stdin?.end(JSON.stringify(options.input));
  const output = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
  const line = output.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${interpreter.framework}'s ${options.script} printed no JSON line (exit ${output.code}):\n${output.stderr.slice(-2000)}`, { cause: error });
  }
}
