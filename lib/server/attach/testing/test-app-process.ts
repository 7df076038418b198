import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { waitForRuntimeFile, type FoundRuntimeFile } from './runtime-file';

/**
 * One genkit test app (examples/apps/) run as a dev tool runs it: a child process with
 * GENKIT_ENV=dev and GENKIT_TELEMETRY_SERVER, found through the runtime file it writes.
 */
export interface StartTestAppOptions {
  command: string;
  args?: string[];
  /** The app's folder: its cwd, and where genkit writes `.genkit/runtimes/` (Go: the nearest go.mod's folder). */
  cwd: string;
  /** GENKIT_TELEMETRY_SERVER (omitted when undefined). */
  telemetryServerUrl?: string;
  /** LOOPSCOPE_APP_MARKER: the file the app's marker-writing tools append to. */
  markerPath?: string;
  /** More environment (GENKIT_REFLECTION_PORT, GENKIT_ENABLE_REALTIME_TELEMETRY…). */
  env?: Record<string, string>;
  /** How long to wait for the runtime file (default 30 s: a cold Python start imports a lot). */
  startTimeoutMs?: number;
  /**
   * Also wait until the app's output matches this. genkit writes the runtime file as soon as its
   * reflection server listens — in genkit() / genkit.Init, before the app's module has defined
   * its flows and tools — so an action list read at that moment can be incomplete (seen with
   * genkit Python 0.12). Python's `run_main` prints "Dev UI ready" once the module has run.
   */
  readyOutput?: RegExp;
}

export interface TestAppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the signal sent to the exit. */
  ms: number;
}

export interface TestApp {
  child: ChildProcess;
  pid: number;
  runtimeFile: FoundRuntimeFile;
  /** The reflection server's base URL, from the runtime file. */
  url: string;
  /** Ms from spawn to the runtime file's appearance (and `readyOutput`, when given). */
  startMs: number;
  /** What the app printed so far (stdout and stderr interleaved). */
  output(): string;
  /** Sends `signal` (SIGTERM by default), waits for the exit (SIGKILL after `timeoutMs`), and removes a runtime file genkit left behind unless `keepRuntimeFile`. */
  stop(options?: { signal?: NodeJS.Signals; timeoutMs?: number; keepRuntimeFile?: boolean }): Promise<TestAppExit>;
}

/** The environment of a genkit app started by a dev tool: the machine's, less Node/Next variables a parent may carry, plus genkit's dev variables. */
function appEnvironment(options: StartTestAppOptions): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(GENKIT_|NODE_OPTIONS$|NEXT_|__NEXT|TURBOPACK|VITEST|LOOPSCOPE_APP_MARKER$)/.test(name)) continue;
    env[name] = value;
  }
  env.GENKIT_ENV = 'dev';
  if (options.telemetryServerUrl) env.GENKIT_TELEMETRY_SERVER = options.telemetryServerUrl;
  if (options.markerPath) env.LOOPSCOPE_APP_MARKER = options.markerPath;
  return { ...env, ...options.env } as NodeJS.ProcessEnv;
}

async function waitForOutput(options: { matches: () => boolean; deadline: number; exited: () => boolean }): Promise<void> {
  while (!options.matches()) {
    if (options.exited()) throw new Error('the app exited before printing that it is ready');
    if (Date.now() > options.deadline) throw new Error('the app did not print that it is ready in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startTestApp(options: StartTestAppOptions): Promise<TestApp> {
  const started = Date.now();
  const child = spawn(options.command, options.args ?? [], { cwd: options.cwd, env: appEnvironment(options), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exited: { code: number | null; signal: NodeJS.Signals | null; at: number } | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal, at: Date.now() };
      resolve();
    }),
  );
  const spawnError = new Promise<string>((resolve) => child.once('error', (error) => resolve(error.message)));
  let failure: string | undefined;
  void spawnError.then((message) => (failure = message));
  if (child.pid === undefined) throw new Error(`${options.command} did not start: ${await spawnError}`);
  const pid = child.pid;

  let runtimeFile: FoundRuntimeFile;
  try {
    runtimeFile = await waitForRuntimeFile({
      projectDir: options.cwd,
      pid,
      timeoutMs: options.startTimeoutMs ?? 30_000,
      aborted: () => failure ?? (exited ? `the app exited (code ${exited.code}, signal ${exited.signal}) before writing it:\n${output.slice(-2000)}` : undefined),
    });
    if (options.readyOutput) await waitForOutput({ matches: () => options.readyOutput!.test(output), deadline: started + (options.startTimeoutMs ?? 30_000), exited: () => exited !== undefined });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const startMs = Date.now() - started;

  return {
    child,
    pid,
    runtimeFile,
    url: runtimeFile.runtime.reflectionServerUrl,
    startMs,
    output: () => output,
    async stop(stopOptions = {}) {
      const sentAt = Date.now();
      if (!exited) {
        child.kill(stopOptions.signal ?? 'SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), stopOptions.timeoutMs ?? 5_000);
        await exit;
        clearTimeout(timer);
      }
      if (!stopOptions.keepRuntimeFile) await rm(runtimeFile.path, { force: true });
      return { code: exited!.code, signal: exited!.signal, ms: Math.max(0, exited!.at - sentAt) };
    },
  };
}
