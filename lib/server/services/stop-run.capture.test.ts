import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { classifySpan } from '../../runtimes/classify-span';
import type { PauseDecision } from '../../contract/pause';
import type { RunMode } from '../../contract/run-mode';
import { CLOSED_BY_ATTRIBUTE } from '../../spans/loopscope-attributes';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import type { RunSession } from './run-registry';
import { decidePause, startRun, stopRun } from './run-service';
import { runEnded, startRunnerContext } from '../testing/runner-context';
import { AI_SDK_HAZARD_TOOLS, aiSdkScenario, GENKIT_HANG_TOOL, GENKIT_SPIN_TOOL, genkitScenario, makeToolsFixture, type ToolsFixture } from '../testing/tools-fixture';
import type { CaptureHarness } from '../testing/capture-harness';

/**
 * Stop with a tool that hangs, on real runners (genkit JS and the AI SDK in node runners), through
 * the run service as the page calls it: the run is `stopped` as soon as Stop answers — long before
 * the tool's 30 s time limit, which these runners keep — its trace says so (open spans closed as
 * stopped, in their runtime's shape), and the runner that ran the tool is replaced.
 */

async function spansOf(harness: CaptureHarness, run: RunSession): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of run.traceIds) spans.push(...((await harness.store.get(traceId)) ?? []));
  return spans;
}

/** Waits until the run has started the span (its runner's start notice reached the registry). */
async function started({ context, runId, name }: { context: AppContext; runId: string; name: string }): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!context.runs.snapshot(runId)?.spanStarts.some((span) => span.name === name)) {
    if (Date.now() > deadline) throw new Error(`run ${runId} never started ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function pausedAt(context: AppContext, runId: string, where: (run: RunSession) => boolean): Promise<RunSession> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const run = context.runs.get(runId)!;
    if (run.pauses.length > 0 && where(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not pause as expected`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pidOf = (run: RunSession | undefined) => run?.runner?.pid;

/** True once no live runner has this pid (it was killed or retired). */
async function gone(harness: CaptureHarness, pid: number | undefined): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (harness.supervisor.status.runners?.some((runner) => runner.pid === pid)) {
    if (Date.now() > deadline) throw new Error(`runner ${pid} is still there`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Stop on genkit JS runs with a hanging tool (tools/scenarios/tool-hangs.json)', () => {
  let server: Awaited<ReturnType<typeof startRunnerContext>>;
  beforeAll(async () => {
    // The tool time limit stays far away: only Stop can end these runs within the test's time.
    server = await startRunnerContext({ harnessOptions: { toolTimeoutMs: 60_000 } });
    expect(await server.harness.supervisor.whenReady(30_000)).toBe(true);
  }, 60_000);
  afterAll(async () => server?.close());

  it('run mode: Stop answers with the run stopped, naming the tool; the trace has the tool and its generate closed as stopped; a fresh runner takes the next run', { timeout: 40_000 }, async () => {
    const { context, harness } = server;
    const run = await startRun({ context, scenario: 'tool-hangs' });
    await started({ context, runId: run.runId, name: 'generateReport' });
    const pid = pidOf(context.runs.get(run.runId));

    const stopped = await stopRun(context, run.runId);
    expect(stopped).toMatchObject({ status: 'stopped', finishReason: 'error', failure: { status: 'CANCELLED' } });
    expect(stopped.failure?.message).toContain("The run was stopped by the user while tool 'generateReport' (ref report-1) was running");

    const spans = await spansOf(harness, stopped);
    // The model call that asked for the tool (ended), the generate and the tool (closed by the runner).
    expect(spans.map((span) => `${classifySpan(span).role} ${span.name}`).sort()).toEqual(['generate generate', 'model scripted/tool-hangs', 'tool generateReport']);
    const closed = spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] === 'run-stopped');
    expect(closed.map((span) => span.name).sort()).toEqual(['generate', 'generateReport']);
    for (const span of closed) {
      expect(span.status).toEqual({ code: 2, message: 'The run was stopped by the user before this span ended (closed by Loopscope).' });
      expect(span.attributes['genkit:state']).toBe('error');
    }
    expect(closed.find((span) => span.name === 'generateReport')!.attributes['genkit:input']).toBe('{"seconds":3600}');
    const graph = buildRunGraph(spans);
    expect(graph.nodes.find((node) => node.kind === 'tool-call')).toMatchObject({ label: 'generateReport#report-1', status: 'failed', tone: 'error', detail: expect.stringContaining('stopped by the user') });
    expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);

    // The tool's code still ran in that runner: it is retired, and the next run gets another.
    await gone(harness, pid);
    const next = await startRun({ context, scenario: 'plain-tool-round' });
    expect(await runEnded({ context, runId: next.runId })).toMatchObject({ status: 'finished', finishReason: 'stop' });
    expect(pidOf(context.runs.get(next.runId))).not.toBe(pid);
  });

  it('step mode, continued into the tool: Stop ends the run at once (it used to answer 200 and stay running until the tool limit)', { timeout: 40_000 }, async () => {
    const { context } = server;
    const mode: RunMode = { kind: 'step' };
    const run = await startRun({ context, scenario: 'tool-hangs', mode });
    const decide = (decision: PauseDecision, session: RunSession) => decidePause({ context, runId: run.runId, pauseId: session.pauses[0].pauseId, decision });
    await decide({ action: 'continue' }, await pausedAt(context, run.runId, (session) => session.pauses[0].kind === 'model'));
    await decide({ action: 'continue' }, await pausedAt(context, run.runId, (session) => session.pauses[0].tool?.name === 'generateReport'));
    await started({ context, runId: run.runId, name: 'generateReport' });

    const stopped = await stopRun(context, run.runId);
    expect(stopped).toMatchObject({ status: 'stopped', pauses: [], failure: { status: 'CANCELLED', message: expect.stringContaining("while tool 'generateReport' (ref report-1) was running") } });
    const tool = (await spansOf(server.harness, stopped)).find((span) => span.name === 'generateReport')!;
    expect(tool.attributes[CLOSED_BY_ATTRIBUTE]).toBe('run-stopped');
  });

  it('a run stopped while paused (no tool running) ends the runtime’s own way: genkit’s spans, nothing closed by Loopscope, the runner kept', { timeout: 40_000 }, async () => {
    const { context, harness } = server;
    const run = await startRun({ context, scenario: 'plain-tool-round', mode: { kind: 'step' } });
    await pausedAt(context, run.runId, (session) => session.pauses[0].kind === 'model');
    const pid = pidOf(context.runs.get(run.runId));
    const stopped = await stopRun(context, run.runId);
    expect(stopped).toMatchObject({ status: 'stopped', failure: { message: 'The run was stopped by the user while paused.' } });
    const spans = await spansOf(harness, stopped);
    expect(spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] !== undefined)).toEqual([]);
    expect(spans.find((span) => span.parentSpanId === undefined)?.status).toMatchObject({ code: 2, message: expect.stringMatching(/stopped by the user/) });
    // Nothing of it runs on: its runner takes the next run.
    const next = await startRun({ context, scenario: 'plain-tool-round' });
    expect(await runEnded({ context, runId: next.runId })).toMatchObject({ status: 'finished' });
    expect(pidOf(context.runs.get(next.runId))).toBe(pid);
  });
});

describe('Stop on AI SDK runs, a busy loop, and a runner shared with a paused run', () => {
  let fixture: ToolsFixture;
  /** Written by the spinning tool before it spins (its span start cannot be announced). */
  const spinStarted = path.join(os.tmpdir(), `loopscope-spin-started-${process.pid}-${Date.now()}`);
  let server: Awaited<ReturnType<typeof startRunnerContext>>;
  beforeAll(async () => {
    fixture = await makeToolsFixture({
      tools: { 'spin.ts': GENKIT_SPIN_TOOL, 'hang.ts': GENKIT_HANG_TOOL },
      aiSdkTools: { 'hazards.ts': AI_SDK_HAZARD_TOOLS },
      scenarios: {
        'ai-hangs': aiSdkScenario({ tools: ['generateReport'], calls: [{ name: 'generateReport', ref: 'report-1', input: { seconds: 3600 } }] }),
        'ai-weather': aiSdkScenario({ tools: ['getWeather'], calls: [{ name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } }], text: 'Sunny.' }),
        spins: genkitScenario({ tools: ['spinForever'], calls: [{ name: 'spinForever', ref: 'spin-1', input: { startedFile: spinStarted } }] }),
        hangs: genkitScenario({ tools: ['generateReport'], calls: [{ name: 'generateReport', ref: 'report-1', input: { seconds: 3600 } }] }),
      },
    });
    // One runner (a second run shares it with a paused one, or waits); a heartbeat far beyond Stop's 1 s.
    server = await startRunnerContext({ harnessOptions: { toolsDir: fixture.toolsDir, toolTimeoutMs: 60_000, heartbeatTimeoutMs: 20_000, maxRunners: 1 } });
    expect(await server.harness.supervisor.whenReady(30_000)).toBe(true);
    expect(server.harness.supervisor.status.problems).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await fixture?.remove();
    await rm(spinStarted, { force: true });
  });

  it('the AI SDK: a run whose tool never settles is stopped at once; its spans closed in the GenAI shape (error.type cancelled), no genkit keys', { timeout: 40_000 }, async () => {
    const { context, harness } = server;
    const run = await startRun({ context, scenario: 'ai-hangs' });
    await started({ context, runId: run.runId, name: 'execute_tool generateReport' });
    const stopped = await stopRun(context, run.runId);
    expect(stopped).toMatchObject({ status: 'stopped', failure: { status: 'CANCELLED', message: expect.stringContaining("while tool 'generateReport' (ref report-1) was running") } });

    const spans = await spansOf(harness, stopped);
    expect(spans.map((span) => span.name).sort()).toEqual(['chat scripted/ai-hangs', 'execute_tool generateReport', 'invoke_agent scripted/ai-hangs', 'step 1']);
    const closed = spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] === 'run-stopped');
    expect(closed.map((span) => span.name).sort()).toEqual(['execute_tool generateReport', 'invoke_agent scripted/ai-hangs', 'step 1']);
    for (const span of closed) {
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('genkit:'))).toEqual([]);
      expect(span.attributes['error.type']).toBe('cancelled');
      expect(span.status).toEqual({ code: 2, message: 'The run was stopped by the user before this span ended (closed by Loopscope).' });
    }
    const graph = buildRunGraph(spans);
    expect(graph.nodes.find((node) => node.kind === 'tool-call')).toMatchObject({ label: 'generateReport#report-1', status: 'failed', tone: 'error', detail: expect.stringContaining('stopped by the user') });
    expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);
    expect(await harness.supervisor.whenReady(30_000)).toBe(true);
  });

  it('a tool that busy-loops: its runner cannot answer Stop, so it is killed within a second — the run stopped, its tool closed as stopped — and replaced', { timeout: 40_000 }, async () => {
    const { context, harness } = server;
    const run = await startRun({ context, scenario: 'spins' });
    await expect.poll(() => existsSync(spinStarted), { timeout: 20_000 }).toBe(true);
    const pid = pidOf(context.runs.get(run.runId));
    const stopped = await stopRun(context, run.runId);
    expect(stopped).toMatchObject({ status: 'stopped', failure: { status: 'CANCELLED' } });
    expect(stopped.failure?.message).toContain('The run was stopped by the user, and its runner did not answer within 1 s (a tool may be stuck in a busy loop), so it was killed.');
    expect(stopped.failure?.message).toContain("Tool 'spinForever' (ref spin-1) of this run was running. Its finished spans were kept and its open spans closed as stopped");
    const tool = (await spansOf(harness, stopped)).find((span) => span.name === 'spinForever')!;
    expect(tool).toMatchObject({ attributes: { [CLOSED_BY_ATTRIBUTE]: 'run-stopped', 'genkit:state': 'error' }, status: { code: 2, message: 'The run was stopped by the user before this span ended (closed by Loopscope).' } });
    await gone(harness, pid);
    const next = await startRun({ context, scenario: 'ai-weather' });
    expect(await runEnded({ context, runId: next.runId })).toMatchObject({ status: 'finished', text: 'Sunny.' });
  });

  it('a hanging run that shares its runner with a paused run: Stop ends it alone; the paused run goes on to its end, then the runner is replaced', { timeout: 60_000 }, async () => {
    const { context, harness } = server;
    expect(await harness.supervisor.whenReady(30_000)).toBe(true);
    const paused = await startRun({ context, scenario: 'ai-weather', mode: { kind: 'step' } });
    const firstPause = await pausedAt(context, paused.runId, (session) => session.pauses[0].kind === 'model');
    // The only runner holds a paused run: the next run shares it (and says so).
    const hanging = await startRun({ context, scenario: 'hangs' });
    await started({ context, runId: hanging.runId, name: 'generateReport' });
    expect(context.runs.get(hanging.runId)?.runner).toMatchObject({ pid: pidOf(firstPause), sharedWith: [paused.runId] });

    expect(await stopRun(context, hanging.runId)).toMatchObject({ status: 'stopped', failure: { message: expect.stringContaining("while tool 'generateReport' (ref report-1) was running") } });
    // The paused run was not taken down with it: it steps on to its answer in the same runner.
    const stepDeadline = Date.now() + 30_000;
    for (;;) {
      const run = context.runs.get(paused.runId)!;
      if (run.status !== 'running') break;
      if (Date.now() > stepDeadline) throw new Error('the paused run did not step to its end');
      if (run.pauses[0]) await decidePause({ context, runId: paused.runId, pauseId: run.pauses[0].pauseId, decision: { action: 'continue' } }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(context.runs.get(paused.runId)).toMatchObject({ status: 'finished', text: 'Sunny.' });
    // Then the runner that still runs the stopped tool's code goes, and a fresh one takes runs.
    await gone(harness, pidOf(firstPause));
    const next = await startRun({ context, scenario: 'ai-weather' });
    expect(await runEnded({ context, runId: next.runId })).toMatchObject({ status: 'finished' });
  });
});
