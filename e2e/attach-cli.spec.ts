/**
 * attach, through the real command: `npm run -s loopscope -- start -- <cmd>` typed in the app's
 * folder (npm moves to the package; INIT_CWD says where the user was, and the app runs there; it
 * dials in to Loopscope's reflection door, so no port of the whole process tree answers a page
 * that rebinds a name to 127.0.0.1 — issue 36), and `loopscope start` without a command attaching
 * to an app already running in dev mode (found by its `.genkit/runtimes/` file, told by genkit's
 * /api/notify to send its spans here; its open reflection server is named on the Apps page). Each:
 * the app's flow runs, its 5 spans arrive, and Ctrl+C (SIGINT to the terminal's process group)
 * leaves no process behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import { listeningPortsOfTree } from '../lib/server/attach/testing/listening-ports';
import { rebindingRunAction, refused } from '../lib/server/attach/testing/rebinding-request';
import { AUTH, freePort, groupAlive, signalGroup, TOKEN } from './helpers';

const repo = process.cwd();
const appDir = path.join(repo, 'examples/apps/genkit-js');

interface Spawned {
  child: ChildProcess;
  output: () => string;
  /** Ctrl+C in the terminal: SIGINT to the whole group; resolves once the group is gone (SIGKILL after 10 s). */
  interrupt: () => Promise<void>;
}

const spawned: Spawned[] = [];

function spawnInGroup(options: { command: string; args: string[]; env: NodeJS.ProcessEnv }): Spawned {
  const child = spawn(options.command, options.args, { cwd: appDir, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const pid = child.pid as number;
  const interrupt = async () => {
    if (!groupAlive(pid)) return;
    signalGroup(pid, 'SIGINT');
    for (let waited = 0; waited < 10_000 && groupAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  };
  const handle = { child, output: () => output, interrupt };
  spawned.push(handle);
  return handle;
}

/** The environment of a terminal: no e2e server settings, Loopscope's own data in a scratch folder. */
function terminalEnvironment(dataDir: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, LOOPSCOPE_TOKEN: TOKEN, LOOPSCOPE_DATA_DIR: path.join(dataDir, 'data'), LOOPSCOPE_TRACES_DIR: path.join(dataDir, 'saved') };
  for (const key of ['PORT', 'INIT_CWD', 'GENKIT_ENV', 'GENKIT_TELEMETRY_SERVER', 'LOOPSCOPE_APP_COMMAND', 'LOOPSCOPE_APP_CWD', 'LOOPSCOPE_ATTACH_DIRS']) delete environment[key];
  return environment;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface ListedRuntime {
  id: string;
  name: string;
  runtime: string;
  pid?: number;
  actions: { key: string }[];
  reflectionWarning?: string;
}

/** The attached trip-planner runtime, once its flow is listed. */
function tripPlanner(request: APIRequestContext, baseUrl: string): Promise<ListedRuntime> {
  return until('the app to be attached', async () => {
    const body = (await (await request.get(`${baseUrl}/api/runtimes`, { headers: AUTH })).json()) as { runtimes: ListedRuntime[] };
    return body.runtimes.find((runtime) => runtime.name === 'trip-planner' && runtime.actions.some((action) => action.key === '/flow/planTrip'));
  });
}

/** Runs planTrip in the app and returns the stored trace's span names. */
async function runFlow(request: APIRequestContext, options: { baseUrl: string; runtimeId: string }): Promise<string[]> {
  const response = await request.post(`${options.baseUrl}/api/runs`, { headers: AUTH, data: { runtimeId: options.runtimeId, action: 'planTrip', input: { city: 'Oslo', nights: 2 } } });
  expect(response.status()).toBe(200);
  const { result } = (await response.json()) as { result: { outcome: string; traceId: string } };
  expect(result.outcome).toBe('interrupted');
  const trace = await request.get(`${options.baseUrl}/api/traces/${result.traceId}`, { headers: AUTH });
  return decodeOtlpJson(await trace.json())
    .map((span) => span.name)
    .sort();
}

test.beforeEach(() => {
  rmSync(path.join(appDir, '.genkit'), { recursive: true, force: true });
});

test.afterEach(async () => {
  await Promise.all(spawned.splice(0).map((handle) => handle.interrupt()));
});

test('attach: `npm run -s loopscope -- start -- <cmd>` in the app’s folder runs the app there, captures its flow, and Ctrl+C ends both', async ({ request }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-cli-'));
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // What a user types in the app's folder (npm --prefix finds Loopscope's package.json from there).
    const cli = spawnInGroup({
      command: 'npm',
      args: ['--prefix', repo, 'run', '-s', 'loopscope', '--', 'start', '--port', String(port), '--', process.execPath, '--import', 'tsx', 'app.ts'],
      env: terminalEnvironment(dataDir),
    });
    await until('the start banner', async () => (cli.output().includes('Loopscope is running') ? true : undefined));
    const runtime = await tripPlanner(request, baseUrl);
    expect(runtime.runtime).toBe('genkit-js');
    // A page that rebinds a name to 127.0.0.1 (issue 36): every port the command's processes listen
    // on — Loopscope's, its runners', the app's — refuses genkit's runAction, and the app listens on none.
    const ports = await listeningPortsOfTree(cli.child.pid as number);
    console.log(`attach-cli: listening sockets of the command's processes: ${ports.map((entry) => `${entry.address}:${entry.port} (pid ${entry.pid})`).join(', ')}`);
    expect(ports.map((entry) => entry.port)).toContain(port);
    const answered = [];
    for (const entry of ports) {
      const answer = await rebindingRunAction({ port: entry.port, address: entry.address, key: '/tool/getWeather', input: { city: 'Oslo' } });
      if (!refused(answer)) answered.push({ ...entry, answer });
    }
    expect(answered).toEqual([]);
    expect(ports.filter((entry) => entry.pid === runtime.pid)).toEqual([]);
    // The app ran in the folder the command was typed in; it dialed in, so it wrote no runtime file there.
    const listed = (await (await request.get(`${baseUrl}/api/runtimes`, { headers: AUTH })).json()) as { app: { cwd: string; pid: number } };
    expect(listed.app.cwd).toBe(appDir);
    expect(runtime.pid).toBe(listed.app.pid);
    expect(runtime.reflectionWarning).toBeUndefined();
    expect(existsSync(path.join(appDir, '.genkit', 'runtimes')) ? readdirSync(path.join(appDir, '.genkit', 'runtimes')) : []).toEqual([]);
    expect(cli.output()).toContain(`[app]`);
    expect(await runFlow(request, { baseUrl, runtimeId: runtime.id })).toEqual(['bookTrip', 'demo/trip-model', 'generate', 'getWeather', 'planTrip']);
    const appPid = runtime.pid ?? Number(runtime.id.split('-')[0]);
    await cli.interrupt();
    expect(groupAlive(cli.child.pid as number)).toBe(false);
    expect(() => process.kill(appPid, 0), 'the app is gone too').toThrow();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('attach: `loopscope start` without a command attaches to an app already running in dev mode, gets its spans, and names its open reflection server', async ({ request, browser }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-cli-'));
  try {
    // The developer's app, already running in dev mode, with no telemetry server of its own.
    const app = spawnInGroup({ command: process.execPath, args: ['--import', 'tsx', 'app.ts'], env: { ...terminalEnvironment(dataDir), GENKIT_ENV: 'dev', GENKIT_REFLECTION_HOST: '127.0.0.1' } });
    await until('the app’s runtime file', async () => {
      const files = (() => {
        try {
          return readdirSync(path.join(appDir, '.genkit', 'runtimes'));
        } catch {
          return [];
        }
      })();
      return files.length > 0 ? files : undefined;
    });
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const cli = spawnInGroup({ command: process.execPath, args: [path.join(repo, 'bin/loopscope.js'), 'start', '--port', String(port)], env: terminalEnvironment(dataDir) });
    await until('the start banner', async () => (cli.output().includes('Loopscope is running') ? true : undefined));
    const runtime = await tripPlanner(request, baseUrl);
    expect(runtime.id.split('-')[0]).toBe(String(app.child.pid));
    // Loopscope did not start it: its reflection server is genkit's, open to a rebinding page, and the Apps page says so.
    expect(runtime.reflectionWarning).toMatch(/checks neither Host nor Origin/);
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#token=${TOKEN}`);
    await page.getByTestId('apps-link').click();
    await expect(page.getByTestId('reflection-warning')).toContainText('(DNS rebinding) can list and run its actions');
    await context.close();
    // Told by /api/notify, the running app now sends its spans to Loopscope.
    expect(await runFlow(request, { baseUrl, runtimeId: runtime.id })).toEqual(['bookTrip', 'demo/trip-model', 'generate', 'getWeather', 'planTrip']);
    await cli.interrupt();
    // Loopscope did not start the app, so it leaves it running.
    expect(groupAlive(app.child.pid as number)).toBe(true);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
