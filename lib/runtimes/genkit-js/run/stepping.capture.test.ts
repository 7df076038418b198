import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { startCaptureHarness, type CaptureHarness } from '../../../server/testing/capture-harness';
import type { GenerateResult } from '../../../runner/run-requests';
import type { PauseDecision, PauseInfo, RunMode } from '../../../runner/step-protocol';

/**
 * Step-by-step runs against the real runner and real genkit: pauses come from genkit's own
 * generateMiddleware, decisions travel over IPC, and the spans that arrive are checked.
 */
let harness: CaptureHarness;
const pauses = new Map<string, PauseInfo[]>();
const waiters: { runId: string; resolve: () => void }[] = [];

beforeAll(async () => {
  harness = await startCaptureHarness({
    toolTimeoutMs: 2_000,
    onPause: (runId, pause) => {
      pauses.set(runId, [...(pauses.get(runId) ?? []), pause]);
      for (const waiter of waiters.filter((candidate) => candidate.runId === runId)) waiter.resolve();
    },
    onPauseEnded: (runId, pauseId) => pauses.set(runId, (pauses.get(runId) ?? []).filter((pause) => pause.pauseId !== pauseId)),
  });
  expect(await harness.supervisor.whenReady()).toBe(true);
});
afterAll(async () => harness?.close());

let counter = 0;
function start(scenario: string, mode: RunMode, extra: { messages?: unknown[]; resume?: object } = {}) {
  const runId = `step-${++counter}`;
  const done = harness.supervisor.generate({ runId, scenario, mode, ...extra });
  return { runId, done };
}

/** Waits until the run has at least `count` open pauses, then returns them. */
async function pausedAt(runId: string, count = 1): Promise<PauseInfo[]> {
  const deadline = Date.now() + 10_000;
  while ((pauses.get(runId)?.length ?? 0) < count) {
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${count} pause(s)`);
    await new Promise<void>((resolve) => {
      waiters.push({ runId, resolve });
      setTimeout(resolve, 200);
    });
  }
  return [...(pauses.get(runId) ?? [])];
}

async function decide(runId: string, pause: PauseInfo, decision: PauseDecision) {
  const result = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision });
  expect(result.ok, result.message).toBe(true);
  return result;
}

function describePause(pause: PauseInfo): string {
  return pause.kind === 'model' ? `model ${pause.modelTurn}` : `tool ${pause.tool?.name}#${pause.tool?.ref}`;
}

async function spansOf(result: GenerateResult) {
  return (await harness.store.get(result.traceIds[0])) ?? [];
}

describe('step mode with the real runner', () => {
  it('pauses before every model call and tool execution, in genkit’s order: model → tools → model', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'step' });
    const order: string[] = [];
    let [pause] = await pausedAt(runId);
    order.push(describePause(pause));
    await decide(runId, pause, { action: 'continue' });
    // Both parallel tools pause together.
    const tools = await pausedAt(runId, 2);
    order.push(...tools.map(describePause).sort());
    for (const tool of tools) await decide(runId, tool, { action: 'continue' });
    [pause] = await pausedAt(runId);
    order.push(describePause(pause));
    await decide(runId, pause, { action: 'continue' });
    const result = await done;
    expect(result.outcome?.finishReason).toBe('stop');
    expect(order).toEqual(['model 1', 'tool convertTemperature#convert-1', 'tool getWeather#weather-1', 'model 2']);
    // The hooks add no spans: still 2N+T.
    expect(await spansOf(result)).toHaveLength(6);
  });

  it('releases parallel tool calls one at a time, in reverse order', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather', 'convertTemperature'], modelTurns: [] } });
    const tools = await pausedAt(runId, 2);
    const reversed = [...tools].reverse();
    await decide(runId, reversed[0], { action: 'continue' });
    expect(await pausedAt(runId, 1)).toEqual([reversed[1]]);
    await decide(runId, reversed[1], { action: 'continue' });
    expect((await done).outcome?.finishReason).toBe('stop');
  });

  it('replaces the model’s answer with hand-written parts, recorded as a loopscope/hand-written model span', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [2] } });
    const [pause] = await pausedAt(runId);
    expect(pause).toMatchObject({ kind: 'model', modelTurn: 2 });
    await decide(runId, pause, { action: 'replace-answer', parts: [{ text: 'Written by hand.' }] });
    const result = await done;
    expect(result.outcome?.text).toBe('Written by hand.');
    const graph = buildRunGraph(await spansOf(result));
    expect(graph.generates[0].turns.map((turn) => turn.model?.model)).toEqual(['scripted/plain-tool-round', 'loopscope/hand-written']);
  });

  it('refuses a tool input that breaks the schema unless forced, and runs the tool with an edited input', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    const refused = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision: { action: 'edit-input', input: { city: 42 } } });
    expect(refused.ok).toBe(false);
    expect(refused.problems?.join()).toMatch(/city/);
    await decide(runId, pause, { action: 'edit-input', input: { city: 'Porto' } });
    const result = await done;
    const weather = (await spansOf(result)).find((span) => span.attributes['genkit:name'] === 'getWeather')!;
    expect(JSON.parse(weather.attributes['genkit:input'] as string)).toEqual({ city: 'Porto' });
  });

  it('answers a tool without running it: the tool never executes', async () => {
    const { runId, done } = start('tool-throws', { kind: 'breakpoints', breakpoints: { tools: ['checkInventory'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    // checkInventory always throws: if it ran, the generate would fail.
    await decide(runId, pause, { action: 'answer', output: { sku: 'SKU-1234', inStock: 7 } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    const spans = await spansOf(result);
    const tool = spans.filter((span) => span.attributes['genkit:name'] === 'checkInventory');
    expect(tool).toHaveLength(1);
    expect(tool[0].attributes['genkit:metadata:loopscope:answeredByHand']).toBe('true');
    expect(tool[0].status.code).not.toBe(2);
  });

  it('interrupts here: a real genkit interrupt that a restart then answers', async () => {
    const first = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [pause] = await pausedAt(first.runId);
    await decide(first.runId, pause, { action: 'interrupt', metadata: { reason: 'check the city' } });
    const interrupted = await first.done;
    expect(interrupted.outcome?.finishReason).toBe('interrupted');
    const graph = buildRunGraph(await spansOf(interrupted));
    const call = graph.generates[0].turns[0].toolCalls.find((candidate) => candidate.name === 'getWeather')!;
    expect(call.status).toBe('interrupted');
    expect(call.interrupt?.metadata).toEqual({ reason: 'check the city' });

    const resumed = await harness.supervisor.generate({
      runId: first.runId,
      scenario: 'plain-tool-round',
      messages: interrupted.outcome?.messages,
      resume: { restart: [{ name: 'getWeather', ref: 'weather-1' }] },
      mode: { kind: 'run' },
    });
    expect(resumed.outcome?.finishReason).toBe('stop');
  });

  it('fails here with the given message', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['convertTemperature'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    await decide(runId, pause, { action: 'fail', message: 'Conversion service unplugged by hand' });
    expect((await done).failure?.message).toContain('Conversion service unplugged by hand');
  });

  it('stops a paused run cleanly, and the trace says it was stopped', async () => {
    const { runId, done } = start('multi-round-research', { kind: 'step' });
    await pausedAt(runId);
    const stopped = await harness.supervisor.command({ type: 'stop', runId });
    expect(stopped.ok).toBe(true);
    const result = await done;
    expect(result.failure?.message).toMatch(/stopped by the user/);
    const root = (await spansOf(result)).find((span) => span.parentSpanId === undefined);
    expect(root?.status.code).toBe(2);
    expect(String(root?.status.message)).toMatch(/stopped by the user/);
  });

  it('marks a paused run failed when the runner dies under it', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'step' });
    await pausedAt(runId);
    harness.supervisor.restart('the test killed it');
    const result = await done;
    expect(result.failure?.message).toMatch(/restarted because the test killed it/);
    expect(await harness.supervisor.whenReady()).toBe(true);
  });

  it('a pause does not count against the tool time limit', async () => {
    const { runId, done } = start('plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // longer than the 2 s tool limit
    await decide(runId, pause, { action: 'continue' });
    expect((await done).outcome?.finishReason).toBe('stop');
  });
});

describe('pause limit', () => {
  it('ends a run that stays paused longer than LOOPSCOPE_PAUSE_TIMEOUT_MS', async () => {
    const short = await startCaptureHarness({ pauseTimeoutMs: 1_000 });
    try {
      expect(await short.supervisor.whenReady()).toBe(true);
      const result = await short.supervisor.generate({ runId: 'timeout-1', scenario: 'plain-tool-round', mode: { kind: 'step' } });
      expect(result.failure?.message).toMatch(/paused for longer than 1 s/);
    } finally {
      await short.close();
    }
  });
});
