/**
 * The package, as a new user gets it (issue 39): `npm pack` in the clone, `npm i -D
 * ./loopscope-*.tgz` in a fresh genkit JS project that knows nothing of Loopscope, then one
 * command there. No TypeScript loader, no next build, no dev dependency of Loopscope in that
 * project: `npx loopscope start -- node app.mjs` attaches the app (its flow runs, its spans are
 * stored, the page shows it), `npx loopscope graph` reads a trace saved into the project, an app
 * importing `loopscope/genkit` under plain node is stepped (ESM in a tree whose genkit keeps its
 * own packages nested, and CommonJS), `resume`, `replay`, `repro` and `compare` work there too, a
 * TypeScript app compiles against the shipped types, and nothing is written into node_modules or
 * the project but the saved trace. In a second project with no genkit at all, an AI SDK app
 * importing `loopscope/ai-sdk` under plain node is stepped from the browser and its approval
 * answered from the workbench into the app, and the built-in genkit examples run (the runner
 * carries its own genkit).
 *
 * better-sqlite3's binary is copied from the clone (lib/install/testing/packed-project.ts says
 * why); bench/package.bench.ts times the install with its install script.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAiSdkProject, createGenkitProject, installTarball, packLoopscope, startInProject, terminalEnvironment, until, type ProjectCommand } from '../lib/install/testing/packed-project';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import { expectRunStatus, freePort } from './helpers';
import { graphNodes, isPost, modelPause, pressStepKey, toolPause } from './stepping-helpers';

const run = promisify(execFile);
const TOKEN = 'package-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

const scratch = mkdtempSync(path.join(os.tmpdir(), 'loopscope-package-'));
const project = path.join(scratch, 'weather-app');
/** The per-user data folder's root for these runs (XDG_DATA_HOME): the default location, in a scratch folder. */
const userData = path.join(scratch, 'user-data');
const installed = path.join(project, 'node_modules', 'loopscope');
/** The AI SDK project: `ai` and zod, no genkit. */
const aiProject = path.join(scratch, 'trip-app');
const running: ProjectCommand[] = [];
let installedAt = 0;
let tarballPath = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(900_000);
  const { tarball, seconds } = await packLoopscope({ destination: scratch });
  const { genkitInstallSeconds } = await createGenkitProject(project);
  const install = await installTarball({ project, tarball, native: 'copy' });
  installedAt = Date.now();
  tarballPath = tarball;
  console.log(`package: npm pack (build included) ${seconds.toFixed(1)} s; npm i genkit ${genkitInstallSeconds.toFixed(1)} s; npm i -D ${path.basename(tarball)} ${install.seconds.toFixed(1)} s`);
});

test.afterEach(async () => {
  await Promise.all(running.splice(0).map((command) => command.interrupt()));
});

test.afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** `npx loopscope start --port <port> [-- <app>]` in the project (the genkit one unless told); resolves once the server answers. */
async function startLoopscope(options: { app?: string[]; port: number; in?: string; env?: Record<string, string> }): Promise<{ command: ProjectCommand; baseUrl: string; firstAnswerMs: number }> {
  const started = performance.now();
  const command = startInProject({
    project: options.in ?? project,
    command: 'npx',
    args: ['loopscope', 'start', '--port', String(options.port), ...(options.app ? ['--', ...options.app] : [])],
    env: { LOOPSCOPE_TOKEN: TOKEN, XDG_DATA_HOME: userData, ...options.env },
  });
  running.push(command);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  await until({ what: `the server on ${baseUrl}:\n${command.output()}`, probe: async () => ((await fetch(`${baseUrl}/`)).status === 200 ? true : undefined) });
  return { command, baseUrl, firstAnswerMs: performance.now() - started };
}

interface ListedRuntime {
  id: string;
  name: string;
  pid?: number;
  actions: { key: string }[];
}

function attached(options: { request: APIRequestContext; baseUrl: string; name: string }): Promise<ListedRuntime> {
  return until({
    what: `the app ${options.name} to be attached`,
    probe: async () => {
      const body = (await (await options.request.get(`${options.baseUrl}/api/runtimes`, { headers: AUTH })).json()) as { runtimes: ListedRuntime[] };
      return body.runtimes.find((runtime) => runtime.name === options.name && runtime.actions.some((action) => action.key === '/flow/weatherFlow'));
    },
  });
}

interface RunView {
  status: string;
  text?: string;
  pauses: { kind: string; tool?: { name: string } }[];
}

async function runView(options: { request: APIRequestContext; baseUrl: string; runId: string }): Promise<RunView> {
  return ((await (await options.request.get(`${options.baseUrl}/api/runs/${options.runId}`, { headers: AUTH })).json()) as { run: RunView }).run;
}

/** Files under a folder changed after `since` (ms), relative to it. */
function changedSince(options: { folder: string; since: number }): string[] {
  return readdirSync(options.folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && statSync(path.join(entry.parentPath, entry.name)).mtimeMs > options.since)
    .map((entry) => path.relative(options.folder, path.join(entry.parentPath, entry.name)));
}

test('package: `npx loopscope start -- node app.mjs` in a genkit project attaches the app, runs its flow and stores its spans, data in the per-user folder', async ({ request, page }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const { command, baseUrl, firstAnswerMs } = await startLoopscope({ app: ['node', 'app.mjs'], port });
  const runtime = await attached({ request, baseUrl, name: 'weather-app' });
  console.log(`package: first answer ${Math.round(firstAnswerMs)} ms after npx loopscope start`);
  expect(command.output()).toContain(`➜ App:     node app.mjs  (in ${project};`);

  const ran = await request.post(`${baseUrl}/api/runs`, { headers: AUTH, data: { runtimeId: runtime.id, action: 'weatherFlow', input: { city: 'Oslo' } } });
  expect(ran.status(), await ran.text()).toBe(200);
  const { result } = (await ran.json()) as { result: { outcome: string; output: string; traceId: string } };
  expect(result).toMatchObject({ outcome: 'ok', output: 'It is 21 °C.' });
  const trace = await until({
    what: 'the flow’s 6 spans',
    probe: async () => {
      const spans = decodeOtlpJson(await (await request.get(`${baseUrl}/api/traces/${result.traceId}`, { headers: AUTH })).json());
      return spans.length >= 6 ? spans : undefined;
    },
  });
  // The flow, genkit's two generate spans, the model's two turns and the tool between them.
  expect(trace.map((span) => span.name).sort()).toEqual(['demo/scripted', 'demo/scripted', 'generate', 'generate', 'getWeather', 'weatherFlow']);

  // The built-in examples run too, in the runner the package ships (genkit and the AI SDK bundled).
  for (const scenario of ['plain-tool-round', 'ai-sdk-plain-tool-round']) {
    const started = await request.post(`${baseUrl}/api/runs`, { headers: AUTH, data: { scenario } });
    expect(started.status(), await started.text()).toBe(202);
    const { run } = (await started.json()) as { run: { runId: string } };
    await expect.poll(async () => (await runView({ request, baseUrl, runId: run.runId })).status, { timeout: 30_000 }).toBe('finished');
  }

  // The page: served from the prebuilt web app, the attached app on the Apps page.
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/#token=${TOKEN}`);
  await page.getByTestId('apps-link').click();
  await expect(page.getByTestId('attached-runtime')).toContainText('weather-app');

  // Saved traces go to the project's traces/, where `npx loopscope graph` reads one.
  const saved = await request.post(`${baseUrl}/api/traces/save`, { headers: AUTH, data: { traceIds: [result.traceId], name: 'weather-flow' } });
  expect(saved.status(), await saved.text()).toBe(201);
  const { file } = (await saved.json()) as { file: string };
  expect(existsSync(path.join(project, 'traces', file))).toBe(true);

  // Captured data: in the per-user data folder, one folder for this project.
  const projects = readdirSync(path.join(userData, 'loopscope', 'projects'));
  expect(projects).toEqual([expect.stringMatching(/^weather-app-[0-9a-f]{10}$/)]);
  expect(readdirSync(path.join(userData, 'loopscope', 'projects', projects[0]))).toContain('loopscope.db');

  // Ctrl+C ends it all — the server, its runners, the app — without a SIGKILL.
  const appPid = runtime.pid as number;
  expect(appPid).toBeGreaterThan(0);
  expect(await command.interrupt()).toBe('exited');
  expect(() => process.kill(appPid, 0), 'the app is gone too').toThrow();
});

test('package: `npx loopscope graph`, `replay`, `repro`, `compare` and `resume` on trace files of the project, --version and --help', async () => {
  const traces = readdirSync(path.join(project, 'traces')).filter((name) => name.endsWith('.json'));
  expect(traces).toHaveLength(1);
  const environment = terminalEnvironment({ XDG_DATA_HOME: userData });
  const graph = await run('npx', ['loopscope', 'graph', `traces/${traces[0]}`, '--json'], { cwd: project, env: environment });
  expect(graph.stderr).toBe('');
  expect(JSON.parse(graph.stdout).summary).toMatchObject({ traces: 1, generates: 1, modelCalls: 2, toolCalls: 1, finishReason: 'stop' });
  const text = await run('npx', ['loopscope', 'graph', `traces/${traces[0]}`], { cwd: project, env: environment });
  expect(text.stdout).toContain('getWeather#w1');

  const version = await run('npx', ['loopscope', '--version'], { cwd: project, env: environment });
  expect(version.stdout).toMatch(/^loopscope 0\.1\.0 \(Node\.js \d+\.\d+\.\d+\)\n$/);
  const help = await run('npx', ['loopscope', '--help'], { cwd: project, env: environment });
  expect(help.stdout).toMatch(/^Usage: loopscope <command> \[options\]/);

  // replay with the runner's genkit, repro written next to it, compare of the file with itself.
  const replay = await run('npx', ['loopscope', 'replay', `traces/${traces[0]}`, '--json'], { cwd: project, env: environment });
  expect(JSON.parse(replay.stdout)).toMatchObject({ matched: true });
  await run('npx', ['loopscope', 'repro', `traces/${traces[0]}`, '--out', 'weather-repro.ts'], { cwd: project, env: environment });
  expect(existsSync(path.join(project, 'weather-repro.ts'))).toBe(true);
  rmSync(path.join(project, 'weather-repro.ts'));
  const compare = await run('npx', ['loopscope', 'compare', `traces/${traces[0]}`, `traces/${traces[0]}`, '--json'], { cwd: project, env: environment });
  expect(JSON.parse(compare.stdout).differences).toEqual([]);

  // resume runs the answer in this process (genkit JS, then the AI SDK) and stores the new trace
  // in the per-user data folder; the OpenTelemetry SDK it captures with is bundled (an import()
  // of it yielded no named exports there: "sdk.InMemorySpanExporter is not a constructor").
  const paused = path.join(scratch, 'paused');
  mkdirSync(paused, { recursive: true });
  for (const file of ['restart-after-approval.json', 'ai-sdk-approval-approved.json']) copyFileSync(path.join(process.cwd(), 'traces', file), path.join(paused, file));
  const genkitResume = await run('npx', ['loopscope', 'resume', path.join(paused, 'restart-after-approval.json'), '--restart', 'transferMoney#transfer-1={"approved":true,"approvedBy":"carol"}', '--json'], { cwd: project, env: environment });
  expect(JSON.parse(genkitResume.stdout).summary).toMatchObject({ generates: 2, restarts: 1, finishReason: 'stop' });
  const aiSdkResume = await run('npx', ['loopscope', 'resume', path.join(paused, 'ai-sdk-approval-approved.json'), '--approve', 'transferMoney#transfer-1=known payee', '--json'], { cwd: project, env: environment });
  expect(JSON.parse(aiSdkResume.stdout).summary).toMatchObject({ generates: 2, finishReason: 'stop' });
});

test('package: a Node older than the floor gets a sentence, not a stack', async () => {
  // The launcher is the first thing that runs: pretend to be Node 18.
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.19.0'})`;
  const result = await run(process.execPath, ['--import', pretend, path.join(project, 'node_modules', '.bin', 'loopscope'), 'graph', 'x.json'], { cwd: project, env: terminalEnvironment() }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  expect(result).toMatchObject({ code: 2, stdout: '' });
  expect((result as { stderr: string }).stderr).toMatch(/^loopscope: Node\.js 20\.9 or newer is needed; this is Node\.js 18\.19\.0 /);
});

test('package: an app importing loopscope/genkit under plain node is stepped — ESM with genkit’s own packages nested, and CommonJS', async ({ request }) => {
  test.setTimeout(180_000);
  // npm nests genkit's @genkit-ai packages under it when another version sits at the top of the
  // tree: the plugin must find the app's @genkit-ai/core there (an import by name did not).
  const nested = path.join(project, 'node_modules', 'genkit', 'node_modules', '@genkit-ai');
  mkdirSync(nested, { recursive: true });
  for (const name of ['ai', 'core']) renameSync(path.join(project, 'node_modules', '@genkit-ai', name), path.join(nested, name));
  expect(existsSync(path.join(project, 'node_modules', '@genkit-ai', 'core'))).toBe(false);
  try {
    for (const [app, name] of [
      ['stepped.mjs', 'stepped-esm'],
      ['stepped.cjs', 'stepped-cjs'],
    ]) {
      const port = await freePort();
      const { command, baseUrl } = await startLoopscope({ app: ['node', app], port });
      const runtime = await attached({ request, baseUrl, name });
      const started = await request.post(`${baseUrl}/api/runs`, { headers: AUTH, data: { runtimeId: runtime.id, action: '/flow/weatherFlow', input: { city: 'Oslo' }, mode: { kind: 'step' } } });
      expect(started.status(), await started.text()).toBe(202);
      const { run } = (await started.json()) as { run: { runId: string } };
      const where = { request, baseUrl, runId: run.runId };
      // Paused before the model call, then before the tool the model asks for, then on to the end.
      await expect.poll(async () => (await runView(where)).pauses.map((pause) => pause.kind), { timeout: 30_000 }).toEqual(['model']);
      expect((await request.post(`${baseUrl}/api/runs/${run.runId}/step`, { headers: AUTH })).status()).toBe(200);
      await expect.poll(async () => (await runView(where)).pauses.map((pause) => `${pause.kind}:${pause.tool?.name ?? ''}`), { timeout: 30_000 }).toEqual(['tool:getWeather']);
      expect((await request.post(`${baseUrl}/api/runs/${run.runId}/continue`, { headers: AUTH })).status()).toBe(200);
      await expect.poll(async () => (await runView(where)).status, { timeout: 30_000 }).toBe('finished');
      expect(command.output()).not.toMatch(/ERR_MODULE_NOT_FOUND|ERR_UNKNOWN_FILE_EXTENSION/);
      await command.interrupt();
    }
  } finally {
    for (const name of ['ai', 'core']) renameSync(path.join(nested, name), path.join(project, 'node_modules', '@genkit-ai', name));
  }
});

test('package: a TypeScript app compiles against the shipped types (nodenext ESM and CommonJS, bundler)', async () => {
  const source = `import { genkit } from 'genkit';
import { loopscope } from 'loopscope/genkit';
import { buildRunGraph, loadTraceFile, type RunGraph } from 'loopscope';
import type { GenkitPlugin } from 'genkit/plugin';

const plugin: GenkitPlugin = loopscope();
export const ai = genkit({ plugins: [plugin] });
export async function graphOf(file: string): Promise<RunGraph> {
  return buildRunGraph(await loadTraceFile(file));
}
// @ts-expect-error loopscope() takes no options: the types are real, not any.
loopscope({ verbose: true });
`;
  writeFileSync(path.join(project, 'typed.ts'), source);
  writeFileSync(path.join(project, 'typed-cjs.cts'), "import { loopscope } from 'loopscope/genkit';\nimport type { GenkitPlugin } from 'genkit/plugin';\nexport const plugin: GenkitPlugin = loopscope();\n");
  const tsc = path.join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
  const common = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(process.cwd(), 'node_modules', '@types')];
  for (const [module, resolution, files] of [
    ['nodenext', 'nodenext', ['typed.ts', 'typed-cjs.cts']],
    ['esnext', 'bundler', ['typed.ts']],
  ] as const) {
    const checked = await run(process.execPath, [tsc, ...common, '--module', module, '--moduleResolution', resolution, ...files], { cwd: project }).catch((error: { stdout: string }) => error);
    expect(checked.stdout, `tsc --moduleResolution ${resolution}`).toBe('');
  }
});

test('package: an AI SDK app importing loopscope/ai-sdk under plain node, in a project without genkit, stepped from the browser, its approval answered into the app, its types compiled', async ({ browser, request }) => {
  test.setTimeout(300_000);
  await createAiSdkProject(aiProject);
  await installTarball({ project: aiProject, tarball: tarballPath, native: 'copy' });
  expect(existsSync(path.join(aiProject, 'node_modules', 'genkit')), 'no genkit in this project').toBe(false);
  const appPort = await freePort();
  const { command, baseUrl } = await startLoopscope({ app: ['node', 'trip-app.mjs'], port: await freePort(), in: aiProject, env: { EXAMPLE_PORT: String(appPort) } });

  // The built-in genkit example runs: the runner carries its own genkit.
  const example = await request.post(`${baseUrl}/api/runs`, { headers: AUTH, data: { scenario: 'plain-tool-round' } });
  expect(example.status(), await example.text()).toBe(202);
  const { run: exampleRun } = (await example.json()) as { run: { runId: string } };
  await expect.poll(async () => (await runView({ request, baseUrl, runId: exampleRun.runId })).status, { timeout: 30_000 }).toBe('finished');

  // The app said hello: listed on the Apps page. Step it.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/#token=${TOKEN}`);
  await page.getByTestId('apps-link').click();
  const section = page.locator('[data-testid=ai-sdk-app][data-app="trip-app"]');
  await expect(section).toBeVisible({ timeout: 30_000 });
  const modeSet = page.waitForResponse(isPost(/^\/api\/runtimes\/ai-sdk-mode$/));
  await section.getByRole('radio', { name: /^Step/ }).click();
  expect((await modeSet).status()).toBe(200);

  // The app's user asks for a trip: its own generateText is a run, paused before its first model call.
  const answered = fetch(`http://127.0.0.1:${appPort}/trip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request: 'Plan a trip to Kyoto for 4 nights' }) }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
  const runLink = section.getByTestId('ai-sdk-app-runs').getByRole('link', { name: 'trip-app: generateText with trip-model' });
  await expect(runLink).toHaveCount(1, { timeout: 20_000 });
  await runLink.click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 1');
  // Step: the model asks for the weather, and the tool waits before it runs in the app.
  await pressStepKey(page, runId, 'S');
  await expect(toolPause(page, 'getWeather').locator('h3')).toHaveText('Paused before tool getWeather#weather-1');
  // Continue: the weather, then the model asks to book, which needs an approval — the call stops there.
  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'interrupted');
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-1' })).toHaveCount(1);

  // The workbench sends the approval into the waiting app.
  await graphNodes(page, 'tool-interrupt').filter({ hasText: 'bookTrip' }).click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const workbench = page.getByTestId('resume-workbench');
  const bookTrip = workbench.locator('[data-testid=workbench-request][data-request="bookTrip#book-1"]');
  await expect(bookTrip.getByTestId('workbench-mode-approve')).toBeChecked();
  await expect(workbench.getByTestId('workbench-ok')).toHaveText('Vercel AI SDK would accept this answer.');
  const sent = page.waitForResponse(isPost(/^\/api\/resume$/));
  await workbench.getByTestId('workbench-resume').click();
  expect((await sent).status()).toBe(202);

  // The app's next generateText goes on as this run, on to the end (Continue was pressed).
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Booked BK-KYOTO-4: Kyoto is 15°C.');
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  expect(await answered).toEqual({ status: 200, body: { text: 'Booked BK-KYOTO-4: Kyoto is 15°C.', calls: 2 } });
  await expect.poll(() => command.output()).toContain('[app] trip-app answered (2 call(s)): Booked BK-KYOTO-4: Kyoto is 15°C.');
  expect(command.output()).not.toMatch(/ERR_MODULE_NOT_FOUND|Dynamic require|Cannot find (module|package)/);
  await context.close();

  // A TypeScript app compiles against the shipped types of loopscope/ai-sdk and the project's own `ai`.
  writeFileSync(
    path.join(aiProject, 'typed-ai.ts'),
    `import { generateText, tool, wrapLanguageModel, type LanguageModel } from 'ai';
import { z } from 'zod';
import { answerInLoopscope, loopscopeStep, loopscopeTelemetry, loopscopeTools, type LoopscopeTelemetry } from 'loopscope/ai-sdk';

export const telemetry: LoopscopeTelemetry = loopscopeTelemetry();
const tools = loopscopeTools({ echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }) });
export async function ask(model: Exclude<LanguageModel, string>) {
  return answerInLoopscope(await generateText({ model: wrapLanguageModel({ model, middleware: loopscopeStep() }), tools, prompt: 'hi' }));
}
// @ts-expect-error loopscopeTools takes a tool set: the types are real, not any.
loopscopeTools(42);
`,
  );
  const tsc = path.join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
  for (const [module, resolution] of [
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ] as const) {
    const checked = await run(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(process.cwd(), 'node_modules', '@types'), '--module', module, '--moduleResolution', resolution, 'typed-ai.ts'], { cwd: aiProject }).catch((error: { stdout: string }) => error);
    expect(checked.stdout, `tsc --moduleResolution ${resolution}`).toBe('');
  }
});

test('package: nothing was written into node_modules/loopscope nor into the project but the saved trace', () => {
  expect(changedSince({ folder: installed, since: installedAt })).toEqual([]);
  const projectFiles = readdirSync(project).filter((name) => !['node_modules', 'package.json', 'package-lock.json', 'app.mjs', 'stepped.mjs', 'stepped.cjs', 'typed.ts', 'typed-cjs.cts'].includes(name));
  expect(projectFiles).toEqual(['traces']);
});
