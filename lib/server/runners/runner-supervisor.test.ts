import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifySpan } from '../../runtimes/classify-span';
import type { RunnerStatus, RunnerSupervisorOptions } from './runner-supervisor';
import type { GenerateResult } from '../../runner/run-requests';
import { startCaptureHarness, type CaptureHarness } from '../testing/capture-harness';

/**
 * The supervisor with a real runner child process on a tools folder made at test time, so
 * tests can break and edit tool files. The folder lives in the OS temp dir with a
 * `node_modules` link to the project's, so `import { z } from 'genkit'` resolves to the very
 * copy the runner uses.
 */

const DEFINE_TOOLS = JSON.stringify(path.join(process.cwd(), 'lib', 'runtimes', 'genkit-js', 'run', 'define-tools.ts'));

function echoTool(version: string): string {
  return `import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS};

export default defineTools((ai) => [
  ai.defineTool(
    {
      name: 'echoVersion',
      description: 'Says which version of this file is loaded.',
      inputSchema: z.object({}),
      outputSchema: z.object({ version: z.string() }),
    },
    async () => ({ version: ${JSON.stringify(version)} }),
  ),
]);
`;
}

const SPIN_TOOL = `import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS};

export default defineTools((ai) => [
  ai.defineTool(
    { name: 'spinForever', description: 'Busy-loops.', inputSchema: z.object({}), outputSchema: z.object({ never: z.boolean() }) },
    async () => {
      for (;;) {}
    },
  ),
]);
`;

const SLOW_TOOL = `import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS};

export default defineTools((ai) => [
  ai.defineTool(
    { name: 'waitLong', description: 'Waits a minute.', inputSchema: z.object({}), outputSchema: z.object({ waited: z.boolean() }) },
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      return { waited: true };
    },
  ),
]);
`;

/** Waits until the test writes the file named in its input (outside tools/, so no reload). */
const HELD_TOOL = `import { existsSync } from 'node:fs';
import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS};

export default defineTools((ai) => [
  ai.defineTool(
    { name: 'waitForRelease', description: 'Waits for a file.', inputSchema: z.object({ file: z.string() }), outputSchema: z.object({ released: z.boolean() }) },
    async ({ file }) => {
      while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
      return { released: true };
    },
  ),
]);
`;

const BROKEN_TOOL = `import { defineTools } from ${DEFINE_TOOLS};

throw new Error('broken-tool exploded at import time');

export default defineTools(() => []);
`;

function scenario(name: string, toolName: string, script: unknown[]) {
  return {
    name,
    title: `Fixture ${name}`,
    description: `Fixture scenario ${name}.`,
    prompt: `Run ${toolName}.`,
    tools: [toolName],
    script,
  };
}

const callTool = (name: string, ref: string) => ({ toolRequests: [{ name, ref, input: {} }] });

const SCENARIOS = {
  'echo-version': scenario('echo-version', 'echoVersion', [callTool('echoVersion', 'echo-1'), { text: 'Echoed.' }]),
  'spin-forever': scenario('spin-forever', 'spinForever', [callTool('spinForever', 'spin-1'), { text: 'Never reached.' }]),
  'wait-long': scenario('wait-long', 'waitLong', [callTool('waitLong', 'wait-1'), { text: 'Never reached.' }]),
  // One model turn and no tool: every span starts and ends before a batch leaves the runner.
  'text-only': scenario('text-only', 'echoVersion', [{ text: 'Nothing to run.' }]),
  // One turn only: the tool runs, then the model is asked for a second turn it does not have.
  'short-script': scenario('short-script', 'echoVersion', [callTool('echoVersion', 'echo-1')]),
};

interface Fixture {
  root: string;
  toolsDir: string;
}

async function makeFixture(tools: Record<string, string>, extraScenarios: Record<string, unknown> = {}): Promise<Fixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-runner-fixture-'));
  await symlink(path.join(process.cwd(), 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const toolsDir = path.join(root, 'tools');
  await mkdir(path.join(toolsDir, 'scenarios'), { recursive: true });
  for (const [file, source] of Object.entries(tools)) await writeFile(path.join(toolsDir, file), source);
  for (const [name, value] of Object.entries({ ...SCENARIOS, ...extraScenarios })) {
    await writeFile(path.join(toolsDir, 'scenarios', `${name}.json`), JSON.stringify(value, null, 2));
  }
  return { root, toolsDir };
}

/** A harness whose status changes can be awaited (no sleeps). */
async function startOn(fixture: Fixture, options: Partial<RunnerSupervisorOptions> = {}) {
  const watchers = new Set<(status: RunnerStatus) => void>();
  const spanStarts: string[] = [];
  const spanStartWatchers = new Set<(name: string) => void>();
  const harness = await startCaptureHarness({
    toolsDir: fixture.toolsDir,
    toolTimeoutMs: 60_000,
    ...options,
    onStatus: (status) => watchers.forEach((watcher) => watcher(status)),
    onSpanStart: (span) => {
      spanStarts.push(span.name);
      spanStartWatchers.forEach((watcher) => watcher(span.name));
    },
  });
  const statusWhere = (predicate: (status: RunnerStatus) => boolean, timeoutMs = 12_000) =>
    new Promise<RunnerStatus>((resolve, reject) => {
      if (predicate(harness.supervisor.status)) return resolve(harness.supervisor.status);
      const timer = setTimeout(() => {
        watchers.delete(watcher);
        reject(new Error(`status never matched; last: ${JSON.stringify({ ...harness.supervisor.status, tools: undefined, scenarios: undefined })}`));
      }, timeoutMs);
      const watcher = (status: RunnerStatus) => {
        if (!predicate(status)) return;
        clearTimeout(timer);
        watchers.delete(watcher);
        resolve(status);
      };
      watchers.add(watcher);
    });
  const spanStarted = (name: string, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      if (spanStarts.includes(name)) return resolve();
      const timer = setTimeout(() => reject(new Error(`span ${name} never started; saw ${spanStarts.join(', ')}`)), timeoutMs);
      const watcher = (started: string) => {
        if (started !== name) return;
        clearTimeout(timer);
        spanStartWatchers.delete(watcher);
        resolve();
      };
      spanStartWatchers.add(watcher);
    });
  return { harness, statusWhere, spanStarted };
}

let runCounter = 0;
function run(harness: CaptureHarness, scenarioName: string): Promise<GenerateResult> {
  return harness.supervisor.generate({ runId: `supervisor-test-${++runCounter}`, scenario: scenarioName });
}

/** The output of the named tool in the run's history. */
function toolOutput(result: GenerateResult, toolName: string): unknown {
  for (const message of (result.outcome?.messages ?? []) as { role: string; content: { toolResponse?: { name: string; output: unknown } }[] }[]) {
    for (const part of message.content) if (part.toolResponse?.name === toolName) return part.toolResponse.output;
  }
  return undefined;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(tools: Record<string, string>, options: Partial<RunnerSupervisorOptions> = {}, extraScenarios: Record<string, unknown> = {}) {
  const fixture = await makeFixture(tools, extraScenarios);
  const started = await startOn(fixture, options);
  cleanups.push(async () => {
    await started.harness.close();
    await rm(fixture.root, { recursive: true, force: true });
  });
  expect(await started.harness.supervisor.whenReady(20_000)).toBe(true);
  return { fixture, ...started };
}

describe('RunnerSupervisor with a real runner', () => {
  it('ties a run to its trace when every span of it ended before a batch left the runner (no start sent), and stores all of them', { timeout: 30_000 }, async () => {
    const told: { runId: string; traceId: string }[] = [];
    const { harness } = await setUp({ 'echo.ts': echoTool('v1') }, { onRunTrace: (runId, traceId) => told.push({ runId, traceId }) });
    const result = await run(harness, 'text-only');
    expect(result.failure).toBeUndefined();
    expect(result.traceIds).toHaveLength(1);
    expect(told).toEqual([{ runId: `supervisor-test-${runCounter}`, traceId: result.traceIds[0] }]);
    const stored = (await harness.store.get(result.traceIds[0]))!;
    expect(stored.map((span) => span.name).sort()).toEqual(['generate', 'scripted/text-only']);
  });

  it('restarts the runner when a tool file changes, and the next run uses the new code', { timeout: 40_000 }, async () => {
    const { fixture, harness, statusWhere } = await setUp({ 'echo.ts': echoTool('v1') }, { watchTools: true });
    const before = harness.supervisor.status;
    expect(before.problems).toEqual([]);
    expect(before.toolsByRuntime['genkit-js'].map((tool) => tool.name)).toEqual(['echoVersion']);

    const first = await run(harness, 'echo-version');
    expect(first.failure).toBeUndefined();
    expect(toolOutput(first, 'echoVersion')).toEqual({ version: 'v1' });

    // The code changes and a tool is added (one reload: the watcher waits for the edits to settle).
    await writeFile(path.join(fixture.toolsDir, 'echo.ts'), echoTool('v2'));
    await writeFile(path.join(fixture.toolsDir, 'added.ts'), echoTool('added').replace("'echoVersion'", "'addedTool'"));
    // A cold runner (tsx, genkit, the tools, its warm-up generate) took over 12 s to be ready while the
    // whole suite loaded both cores; 5 s alone. The wait is the other restart test's.
    const after = await statusWhere((status) => status.restarts > before.restarts && status.state === 'ready' && status.pid !== before.pid && status.toolsByRuntime['genkit-js'].length === 2, 30_000);
    expect(after.pid).not.toBe(before.pid);
    expect(after.lastRestartReason).toMatch(/echo\.ts|added\.ts/);
    // A different catalog gets the next version: the page reads it again (the live event leaves it out).
    expect(before.catalogVersion).toBeGreaterThan(0);
    expect(after.catalogVersion).toBeGreaterThan(before.catalogVersion!);
    expect(after.toolsByRuntime['genkit-js'].map((tool) => tool.name).sort()).toEqual(['addedTool', 'echoVersion']);

    const second = await run(harness, 'echo-version');
    expect(second.failure).toBeUndefined();
    expect(toolOutput(second, 'echoVersion')).toEqual({ version: 'v2' });
    expect(second.outcome?.text).toBe('Echoed.');
  });
});

describe('RunnerSupervisor: tools/ changes while a run is in flight', () => {
  it('the run in flight finishes with the code it loaded; idle runners are replaced at once, and its own once it is done', { timeout: 60_000 }, async () => {
    const release = path.join(os.tmpdir(), `loopscope-release-${process.pid}-${Date.now()}`);
    const held = scenario('held', 'waitForRelease', [{ toolRequests: [{ name: 'waitForRelease', ref: 'held-1', input: { file: release } }] }, { text: 'Released.' }]);
    const { fixture, harness, statusWhere, spanStarted } = await setUp({ 'echo.ts': echoTool('v1'), 'held.ts': HELD_TOOL }, { watchTools: true }, { held });
    cleanups.push(() => rm(release, { force: true }));
    const before = harness.supervisor.status;
    const busy = run(harness, 'held');
    await spanStarted('waitForRelease');
    const busyPid = harness.supervisor.status.runners?.find((runner) => runner.state === 'busy')?.pid;
    expect(busyPid).toBeDefined();

    await writeFile(path.join(fixture.toolsDir, 'echo.ts'), echoTool('v2'));
    const noticed = await statusWhere((status) => status.restarts > before.restarts);
    expect(noticed.lastRestartReason).toBe('tools/echo.ts changed');
    // The busy runner is left to finish its run; it takes no new run.
    expect(noticed.runners?.find((runner) => runner.pid === busyPid)?.state).toBe('retiring');
    await statusWhere((status) => status.state === 'ready' && status.pid !== before.pid && status.pid !== busyPid, 30_000);
    const echoed = await run(harness, 'echo-version');
    expect(toolOutput(echoed, 'echoVersion')).toEqual({ version: 'v2' });

    await writeFile(release, 'go');
    const finished = await busy;
    expect(finished.failure).toBeUndefined();
    expect(finished.outcome?.text).toBe('Released.');
    await statusWhere((status) => !(status.runners ?? []).some((runner) => runner.pid === busyPid));
  });
});

describe('RunnerSupervisor: a busy-looping tool', () => {
  it('fails the run saying the runner stopped answering, and the next run of another scenario succeeds', { timeout: 40_000 }, async () => {
    const { harness } = await setUp({ 'echo.ts': echoTool('v1'), 'spin.ts': SPIN_TOOL }, { heartbeatTimeoutMs: 2_000 });
    const pidBefore = harness.supervisor.status.pid;
    const restartsBefore = harness.supervisor.status.restarts;

    const stuck = await run(harness, 'spin-forever');
    expect(stuck.outcome).toBeUndefined();
    expect(stuck.failure?.message).toMatch(/stopped answering/);
    expect(stuck.failure?.message).toContain('2 s');
    expect(stuck.failure?.status).toBe('UNAVAILABLE');
    // The busy loop never gave the event loop back, yet its start had reached the server.
    expect(stuck.failure?.message).toContain("Tool 'spinForever' (ref spin-1) of this run was running.");
    const spans = (await harness.store.get(stuck.traceIds[0])) ?? [];
    expect(spans.map((span) => `${classifySpan(span).role}:${classifySpan(span).outcome}`).sort()).toEqual(['generate:error', 'model:ok', 'tool:error']);
    expect(spans.find((span) => span.name === 'spinForever')?.status.message).toMatch(/stopped answering for 2 s/);

    const next = await run(harness, 'echo-version');
    expect(next.failure).toBeUndefined();
    expect(toolOutput(next, 'echoVersion')).toEqual({ version: 'v1' });
    expect(harness.supervisor.status.restarts).toBe(restartsBefore + 1);
    expect(harness.supervisor.status.pid).not.toBe(pidBefore);
    expect(harness.supervisor.status.lastRestartReason).toMatch(/stopped answering/);
  });
});

describe('RunnerSupervisor: problems in tools/', () => {
  it('reports a tool module that throws at import and a scenario with a bad field; the rest loads', { timeout: 30_000 }, async () => {
    const { harness } = await setUp(
      { 'broken-tool.ts': BROKEN_TOOL, 'echo.ts': echoTool('v1') },
      {},
      { 'bad-field': { ...scenario('bad-field', 'echoVersion', [{ text: 'hi' }]), tools: 'echoVersion' } },
    );
    const status = harness.supervisor.status;
    expect(status.problems).toHaveLength(2);
    const broken = status.problems.find((problem) => problem.file === 'broken-tool.ts');
    expect(broken?.message).toContain('broken-tool exploded at import time');
    const badField = status.problems.find((problem) => problem.file === 'scenarios/bad-field.json');
    expect(badField?.message).toMatch(/^tools: /);

    expect(status.toolsByRuntime['genkit-js'].map((tool) => tool.name)).toEqual(['echoVersion']);
    expect(status.toolsByRuntime['genkit-js'][0].file).toBe('echo.ts');
    expect(status.scenarios.map((candidate) => candidate.name)).not.toContain('bad-field');
    expect(status.scenarios.map((candidate) => candidate.name)).toContain('echo-version');

    const result = await run(harness, 'echo-version');
    expect(result.failure).toBeUndefined();
    expect(toolOutput(result, 'echoVersion')).toEqual({ version: 'v1' });
  });
});

describe('RunnerSupervisor: failures reported as data', () => {
  let harness: CaptureHarness;
  let spanStarted: (name: string) => Promise<void>;

  beforeAll(async () => {
    ({ harness, spanStarted } = await setUp({ 'echo.ts': echoTool('v1'), 'slow.ts': SLOW_TOOL }));
  }, 30_000);

  afterEach(async () => {
    expect(await harness.supervisor.whenReady(15_000)).toBe(true);
  });

  it('a scripted model that runs out of script fails naming the scenario and the turn', async () => {
    const result = await run(harness, 'short-script');
    expect(result.outcome).toBeUndefined();
    expect(result.failure?.message).toContain('"short-script"');
    expect(result.failure?.message).toContain('no turn 2');
    expect(result.failure?.message).toContain('1 turn(s)');
    // The tool ran before the model failed: its span and the failed generate are stored.
    expect(result.traceIds).toHaveLength(1);
    const spans = (await harness.store.get(result.traceIds[0])) ?? [];
    expect(spans.filter((span) => classifySpan(span).role === 'tool')).toHaveLength(1);
    expect(spans.some((span) => classifySpan(span).outcome === 'error')).toBe(true);
  });

  it('an unknown scenario fails with NOT_FOUND', async () => {
    const result = await run(harness, 'no-such-scenario');
    expect(result.failure).toMatchObject({ status: 'NOT_FOUND' });
    expect(result.failure?.message).toContain('no-such-scenario');
  });

  it('a restart while a run is in flight fails that run with the reason', async () => {
    const restartsBefore = harness.supervisor.status.restarts;
    const pending = run(harness, 'wait-long');
    await spanStarted('waitLong');
    harness.supervisor.restart('the user pressed restart');
    const result = await pending;
    expect(result.outcome).toBeUndefined();
    expect(result.failure?.message).toContain('The runner was restarted because the user pressed restart.');
    expect(result.failure?.status).toBe('UNAVAILABLE');
    // The trace the run had started is still attributed to it.
    expect(result.traceIds).toHaveLength(1);
    expect(await harness.supervisor.whenReady(15_000)).toBe(true);
    expect(harness.supervisor.status.restarts).toBe(restartsBefore + 1);
    expect(harness.supervisor.status.lastRestartReason).toContain('the user pressed restart');
  });
});

describe('RunnerSupervisor: a tool module that busy-loops while loading', () => {
  // The heartbeatTimeoutMs option says "a runner that answers no ping for this long is
  // killed"; checkHeartbeat only applies it once the runner is `ready`, so a runner stuck
  // importing tools/ stays `starting` for ever and every run waits 30 s for nothing.
  it('kills the runner that stops answering while it loads tools', { timeout: 40_000 }, async () => {
    const fixture = await makeFixture({ 'loops-on-import.ts': 'for (;;) {}\nexport default () => [];\n' });
    const { harness, statusWhere } = await startOn(fixture, { heartbeatTimeoutMs: 2_000 });
    cleanups.push(async () => {
      await harness.close();
      await rm(fixture.root, { recursive: true, force: true });
    });
    // A starting runner gets 3 × 2 s of silence; its cold start before that runs long on a
    // loaded two-core machine (CI runs this file beside others), so wait generously.
    const status = await statusWhere((candidate) => candidate.restarts > 0, 30_000);
    expect(status.lastRestartReason).toMatch(/stopped answering/);
  });
});
