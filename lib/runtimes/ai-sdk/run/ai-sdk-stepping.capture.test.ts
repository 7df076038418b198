import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSpanFromStart } from '../../../contract/open-span';
import type { SpanStartEvent } from '../../../contract/span-start';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { ghostNodes } from '../../../graph/ghost-nodes';
import { startCaptureHarness, type CaptureHarness } from '../../../server/testing/capture-harness';
import type { GenerateResult } from '../../../runner/run-requests';
import { mergeSpans } from '../../../spans/merge-spans';
import type { Span } from '../../../spans/span';
import type { PauseDecision, PauseInfo, RunMode } from '../../../runner/step-protocol';

/**
 * Step-by-step AI SDK runs against the real runner: real `generateText` on the scripted model
 * wrapped with `wrapLanguageModel`, pauses and decisions over IPC, the SDK's spans reported over
 * IPC, stored and counted, and the live graph at each pause (open spans from their start notices, as
 * the server draws it) carrying a ghost where the run stands.
 */
let harness: CaptureHarness;
const pauses = new Map<string, PauseInfo[]>();
const seen = new Map<string, PauseInfo[]>();
const starts: SpanStartEvent[] = [];

beforeAll(async () => {
  harness = await startCaptureHarness({
    toolTimeoutMs: 2_000,
    onSpanStart: (span) => starts.push(span),
    onPause: (runId, pause) => {
      pauses.set(runId, [...(pauses.get(runId) ?? []), pause]);
      seen.set(runId, [...(seen.get(runId) ?? []), pause]);
    },
    onPauseEnded: (runId, pauseId) => pauses.set(runId, (pauses.get(runId) ?? []).filter((pause) => pause.pauseId !== pauseId)),
  });
  expect(await harness.supervisor.whenReady()).toBe(true);
});
afterAll(async () => harness?.close());

let counter = 0;
function start(scenario: string, mode: RunMode) {
  const runId = `ai-sdk-step-${++counter}`;
  return { runId, done: harness.supervisor.generate({ runId, scenario, mode }) };
}

async function until<T>(what: string, read: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the run has exactly `count` open pauses. */
const pausedAt = (runId: string, count = 1) => until(`${count} pause(s) of ${runId}`, () => ((pauses.get(runId)?.length ?? 0) === count ? [...pauses.get(runId)!] : undefined));

async function decide(runId: string, pause: PauseInfo, decision: PauseDecision) {
  const result = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision });
  expect(result.ok, result.message).toBe(true);
}

const describePause = (pause: PauseInfo) => (pause.kind === 'model' ? `model ${pause.modelTurn}` : `tool ${pause.tool?.name}#${pause.tool?.ref}`);
const names = (spans: Span[]) => spans.map((span) => span.name.replace(/scripted\/[\w-]+/, 'M')).sort();
const spansOf = async (result: GenerateResult) => (await harness.store.get(result.traceIds[0])) ?? [];

/**
 * The graph as a live page draws it at a pause, once `stored` spans have been stored and
 * the start notices of the open ones (`open`) over IPC: stored plus open spans, and the ghosts.
 */
async function liveGraphAt({ traceId, pause, stored, open }: { traceId: string; pause: PauseInfo[]; stored: number; open: number }) {
  return until(`${stored} stored and ${open} open span(s)`, async () => {
    const spans = (await harness.store.get(traceId)) ?? [];
    const merged = mergeSpans(starts.filter((span) => span.traceId === traceId).map(openSpanFromStart), spans);
    if (spans.length < stored || merged.length - spans.length < open) return undefined;
    const graph = buildRunGraph(merged);
    return { graph, ghosts: ghostNodes(graph, pause) };
  });
}

describe('AI SDK step mode with the real runner', () => {
  it('pauses before each model call and each tool (parallel tools together), ghosts stand where the run is, and the spans are the SDK’s own', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'step' });
    let [model] = await pausedAt(runId);
    expect(model).toMatchObject({ kind: 'model', modelTurn: 1, actions: ['continue', 'edit-request', 'replace-answer', 'fail'] });
    expect(model.traceId).toMatch(/^[0-9a-f]{32}$/);
    let live = await liveGraphAt({ traceId: model.traceId!, pause: [model], stored: 0, open: 3 }); // invoke_agent, step 1, chat
    expect(live.ghosts.nodes.map((node) => node.label)).toEqual(['paused before model call 1']);
    expect(live.ghosts.hidden.size).toBe(1); // the chat span the SDK opened before calling the model

    await decide(runId, model, { action: 'continue' });
    const tools = await pausedAt(runId, 2);
    expect(tools.map(describePause).sort()).toEqual(['tool convertTemperature#convert-1', 'tool getWeather#weather-1']);
    // The first chat span has ended and reached the store: the ghosts hang off it.
    live = await liveGraphAt({ traceId: model.traceId!, pause: tools, stored: 1, open: 4 }); // invoke_agent, step 1, two execute_tool
    const turn = live.graph.generates[0].turns[0];
    expect(live.ghosts.nodes.map((node) => node.label).sort()).toEqual(['paused before convertTemperature#convert-1', 'paused before getWeather#weather-1']);
    expect(live.ghosts.edges.map((edge) => edge.source)).toEqual([turn.model!.id, turn.model!.id]);
    expect([...live.ghosts.hidden].sort()).toEqual(turn.toolCalls.map((call) => call.id).sort());

    // Released in reverse order.
    for (const tool of [...tools].reverse()) await decide(runId, tool, { action: 'continue' });
    [model] = await pausedAt(runId);
    expect(model.modelTurn).toBe(2);
    await decide(runId, model, { action: 'continue' });
    const result = await done;
    expect(result.outcome?.finishReason).toBe('stop');
    expect(result.outcome?.text).toBe('It is 24°C (75°F) and sunny in Lisbon.');
    expect((seen.get(runId) ?? []).map(describePause)).toEqual(['model 1', 'tool getWeather#weather-1', 'tool convertTemperature#convert-1', 'model 2']);
    // The hooks add no spans.
    expect(names(await spansOf(result))).toEqual(['chat M', 'chat M', 'execute_tool convertTemperature', 'execute_tool getWeather', 'invoke_agent M', 'step 1', 'step 2']);
  });

  it('edit input: refused against the tool’s schema unless forced; the edited input is what the tool ran with', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    const refused = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision: { action: 'edit-input', input: { city: 42 } } });
    expect(refused.ok).toBe(false);
    expect(refused.problems?.join()).toMatch(/city/);
    expect(refused.message).toContain('the AI SDK');
    await decide(runId, pause, { action: 'edit-input', input: { city: 'Porto' } });
    const result = await done;
    const weather = (await spansOf(result)).find((span) => span.name === 'execute_tool getWeather')!;
    expect(JSON.parse(weather.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Porto' });
    expect(JSON.parse(weather.attributes['gen_ai.tool.call.result'] as string)).toMatchObject({ city: 'Porto' });
  });

  it('answer without running: the throwing tool never runs, the model reads the hand-written result, drawn as answered by hand', async () => {
    const { runId, done } = start('ai-sdk-tool-throws', { kind: 'breakpoints', breakpoints: { tools: ['checkInventory'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    await decide(runId, pause, { action: 'answer', output: { sku: 'MUG-BLUE', inStock: 7 } });
    const result = await done;
    const spans = await spansOf(result);
    const tool = spans.find((span) => span.name === 'execute_tool checkInventory')!;
    expect(tool.status.code).not.toBe(2);
    const call = buildRunGraph(spans).generates[0].turns[0].toolCalls[0];
    expect(call).toMatchObject({ status: 'ok', answeredByHand: true });
    expect(call.runtimeState).toBeUndefined();
  });

  it('replace the model’s answer: no model call, drawn as a hand-written answer', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [2] } });
    const [pause] = await pausedAt(runId);
    expect(pause).toMatchObject({ kind: 'model', modelTurn: 2 });
    await decide(runId, pause, { action: 'replace-answer', parts: [{ text: 'Written by hand.' }] });
    const result = await done;
    expect(result.outcome?.text).toBe('Written by hand.');
    const graph = buildRunGraph(await spansOf(result));
    expect(graph.generates[0].turns.map((turn) => [turn.model?.model, turn.model?.handWritten ?? false])).toEqual([
      ['scripted/ai-sdk-plain-tool-round', false],
      ['loopscope/hand-written', true],
    ]);
  });

  it('a hand-written call of an unknown tool is refused unless forced; forced, the SDK makes it a NoSuchToolError the model sees', async () => {
    const { runId, done } = start('ai-sdk-tool-throws', { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [1] } });
    const [pause] = await pausedAt(runId);
    const parts = [{ toolRequest: { name: 'nope', ref: 'nope-1', input: {} } }];
    const refused = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision: { action: 'replace-answer', parts } });
    expect(refused.ok).toBe(false);
    expect(refused.problems).toEqual(['nope#nope-1: no tool named nope is offered to the model']);
    await decide(runId, pause, { action: 'replace-answer', parts, force: true });
    const result = await done;
    expect(result.outcome?.finishReason).toBe('stop');
    const [call] = buildRunGraph(await spansOf(result)).generates[0].turns[0].toolCalls;
    expect(call).toMatchObject({ name: 'nope', status: 'error', runtimeState: { code: 'NoSuchToolError' } });
  });

  it('refuses a decision the AI SDK cannot carry out (a genkit interrupt), not even forced', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    const refused = await harness.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision: { action: 'interrupt', metadata: { reason: 'x' } } });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('does not take "interrupt"') });
    await decide(runId, pause, { action: 'continue' });
    expect((await done).outcome?.finishReason).toBe('stop');
  });

  it('fail here at a tool: a tool-error the model sees, and the loop goes on to its answer', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['convertTemperature'], modelTurns: [] } });
    const [pause] = await pausedAt(runId);
    await decide(runId, pause, { action: 'fail', message: 'Conversion unplugged by hand' });
    const result = await done;
    expect(result.failure).toBeUndefined();
    const spans = await spansOf(result);
    const tool = spans.find((span) => span.name === 'execute_tool convertTemperature')!;
    expect(tool.status.code).toBe(2);
    expect(String(tool.status.message)).toContain('Conversion unplugged by hand');
    expect(spans.filter((span) => span.name.startsWith('chat'))).toHaveLength(2);
  });

  it('fail here at a model call fails the call with the message', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'step' });
    const [pause] = await pausedAt(runId);
    await decide(runId, pause, { action: 'fail', message: 'Model unplugged by hand' });
    expect((await done).failure?.message).toContain('Model unplugged by hand');
  });

  it('stops a paused run; the trace says it was stopped', async () => {
    const { runId, done } = start('ai-sdk-plain-tool-round', { kind: 'step' });
    await pausedAt(runId);
    expect((await harness.supervisor.command({ type: 'stop', runId })).ok).toBe(true);
    const result = await done;
    expect(result.failure?.message).toMatch(/stopped by the user/);
    const root = (await spansOf(result)).find((span) => span.parentSpanId === undefined);
    expect(root?.status.code).toBe(2);
    expect(String(root?.status.message)).toMatch(/stopped by the user/);
  });

  it('an approved tool pauses in the answer call too, before it runs (the SDK runs it before step 1)', async () => {
    const mode: RunMode = { kind: 'breakpoints', breakpoints: { tools: ['transferMoney'], modelTurns: [] } };
    // The first call asks for an approval: transferMoney does not run, so nothing pauses.
    const first = await harness.supervisor.generate({ runId: 'ai-sdk-step-approval', scenario: 'ai-sdk-approval-approved', mode });
    expect(first.outcome?.finishReason).toBe('tool-calls');
    expect(seen.get('ai-sdk-step-approval')).toBeUndefined();
    const scenario = harness.supervisor.status.scenarios.find((candidate) => candidate.name === 'ai-sdk-approval-approved') as { resumes?: object[] };
    const answer = harness.supervisor.generate({ runId: 'ai-sdk-step-approval', scenario: 'ai-sdk-approval-approved', mode, messages: first.outcome?.messages, aiSdkAnswers: scenario.resumes?.[0] as never });
    const [pause] = await pausedAt('ai-sdk-step-approval');
    expect(describePause(pause)).toBe('tool transferMoney#transfer-1');
    await decide('ai-sdk-step-approval', pause, { action: 'continue' });
    const result = await answer;
    expect(result.outcome?.text).toBe('Sent 500 USD to Bob.');
  });
});
