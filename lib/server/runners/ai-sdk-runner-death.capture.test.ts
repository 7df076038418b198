import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { classifySpan } from '../../runtimes/classify-span';
import type { PauseInfo } from '../../runner/step-protocol';
import { CLOSED_BY_ATTRIBUTE } from '../../spans/loopscope-attributes';
import type { RunRunnerInfo, RunnerSupervisorOptions } from './runner-supervisor';
import { startCaptureHarness, type CaptureHarness } from '../testing/capture-harness';
import { AI_SDK_HAZARD_TOOLS, aiSdkScenario, makeToolsFixture, type ToolsFixture } from '../testing/tools-fixture';

/**
 * What a runner knows of an AI SDK tool while it runs — real `generateText` in real runners,
 * the SDK's own `execute_tool` spans — read through the AI SDK dialect, not genkit's words: a
 * run with one executing "has a running tool" (its runner is not shared), a runner that dies
 * during one names it, and the span it leaves open is closed in the OTel GenAI shape.
 */
let fixture: ToolsFixture;
let harness: CaptureHarness;
const runnerInfo = new Map<string, RunRunnerInfo[]>();
const pauses = new Map<string, PauseInfo[]>();
const started: string[] = [];

const watchRuns: Partial<RunnerSupervisorOptions> = {
  onRunRunner: (runId, info) => runnerInfo.set(runId, [...(runnerInfo.get(runId) ?? []), info]),
  onPause: (runId, pause) => pauses.set(runId, [...(pauses.get(runId) ?? []), pause]),
  onPauseEnded: (runId, pauseId) => pauses.set(runId, (pauses.get(runId) ?? []).filter((pause) => pause.pauseId !== pauseId)),
  onSpanStart: (span) => started.push(`${span.runId} ${span.name}`),
};

beforeAll(async () => {
  fixture = await makeToolsFixture({
    aiSdkTools: { 'hazards.ts': AI_SDK_HAZARD_TOOLS },
    scenarios: {
      'ai-exits': aiSdkScenario({ tools: ['exitProcess'], calls: [{ name: 'exitProcess', ref: 'exit-1', input: { code: 3 } }] }),
      'ai-hangs-beside-a-pause': aiSdkScenario({
        tools: ['generateReport', 'getWeather'],
        calls: [
          { name: 'generateReport', ref: 'report-1', input: { seconds: 3600 } },
          { name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } },
        ],
      }),
      'ai-weather': aiSdkScenario({ tools: ['getWeather'], calls: [{ name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } }], text: 'Sunny.' }),
    },
  });
  // One runner: a second run either shares it or waits.
  harness = await startCaptureHarness({ toolsDir: fixture.toolsDir, maxRunners: 1, ...watchRuns });
  expect(await harness.supervisor.whenReady(30_000)).toBe(true);
  expect(harness.supervisor.status.problems).toEqual([]);
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await fixture?.remove();
});

async function until(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('an AI SDK tool that runs, read by the AI SDK dialect', () => {
  it('a runner that dies during an AI SDK tool names the tool, and closes its execute_tool span in the GenAI shape, no genkit keys', { timeout: 60_000 }, async () => {
    const result = await harness.supervisor.generate({ runId: 'ai-death', scenario: 'ai-exits' });
    expect(result.failure?.status).toBe('UNAVAILABLE');
    expect(result.failure?.message).toContain("The runner exited with code 3 while tool 'exitProcess' (ref exit-1) of this run was running");

    const spans = (await harness.store.get(result.traceIds[0])) ?? [];
    // invoke_agent and step 1 (open when it died), chat (ended), execute_tool (open when it died).
    expect(spans.map((span) => span.name).sort()).toEqual(['chat scripted/ai-exits', 'execute_tool exitProcess', 'invoke_agent scripted/ai-exits', 'step 1']);
    const closed = spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] === 'runner-died');
    expect(closed.map((span) => span.name).sort()).toEqual(['execute_tool exitProcess', 'invoke_agent scripted/ai-exits', 'step 1']);
    for (const span of closed) {
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('genkit:'))).toEqual([]);
      expect(span.status).toEqual({ code: 2, message: expect.stringContaining('The runner exited with code 3 before this span ended') });
      expect(span.attributes['error.type']).toBe('_OTHER');
      expect(span.scope.name).not.toBe('genkit-tracer');
    }
    const tool = closed.find((span) => span.name === 'execute_tool exitProcess')!;
    expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'exitProcess', 'gen_ai.tool.call.id': 'exit-1', 'gen_ai.tool.call.arguments': '{"code":3}' });
    expect(classifySpan(tool)).toMatchObject({ role: 'tool', label: 'exitProcess', outcome: 'error' });

    // The graph draws the tool failed with the cause; nothing is left running.
    const graph = buildRunGraph(spans);
    const toolNode = graph.nodes.find((node) => node.kind === 'tool-call');
    expect(toolNode).toMatchObject({ label: 'exitProcess#exit-1', status: 'failed', tone: 'error' });
    expect(toolNode?.detail).toContain('exited with code 3');
    expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);
    expect(await harness.supervisor.whenReady(30_000)).toBe(true);
  });

  it('a run paused at one AI SDK tool while another runs is not a paused run: a new run waits for a runner instead of sharing that one', { timeout: 60_000 }, async () => {
    const mode = { kind: 'breakpoints' as const, breakpoints: { tools: ['getWeather'], modelTurns: [] } };
    const hanging = harness.supervisor.generate({ runId: 'ai-busy', scenario: 'ai-hangs-beside-a-pause', mode });
    await until('getWeather pauses and generateReport runs', () => (pauses.get('ai-busy')?.length ?? 0) === 1 && started.includes('ai-busy execute_tool generateReport'));

    const next = harness.supervisor.generate({ runId: 'ai-next', scenario: 'ai-weather' });
    await until('the next run is told where it stands', () => (runnerInfo.get('ai-next')?.length ?? 0) > 0);
    // It waits in line: a tool of the paused run is executing in the only runner.
    expect(runnerInfo.get('ai-next')).toEqual([{ waiting: expect.stringContaining('waiting for a runner') }]);

    // Stopped, the busy run frees the line; the next run gets a fresh runner, shared with no one.
    expect(await harness.supervisor.command({ type: 'stop', runId: 'ai-busy' })).toMatchObject({ ok: true });
    expect((await hanging).failure?.message).toMatch(/stopped by the user/);
    const done = await next;
    expect(done.outcome?.text).toBe('Sunny.');
    const given = runnerInfo.get('ai-next')!.find((info) => info.pid !== undefined)!;
    expect(given.sharedWith).toBeUndefined();
    expect(given.pid).not.toBe(runnerInfo.get('ai-busy')!.find((info) => info.pid !== undefined)!.pid);
  });
});
