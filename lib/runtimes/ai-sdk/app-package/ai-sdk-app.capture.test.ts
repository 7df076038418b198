/**
 * `loopscope/ai-sdk` in an app's own process, with the real `ai` 7 and @ai-sdk/otel, against
 * Loopscope's real doors (OTLP receiver, step door, AI SDK app door) and the real run and resume
 * services: the example app's agent (examples/apps/ai-sdk/trip-agent.ts) makes its own
 * generateText / streamText calls; its spans are counted as they arrive; each call is a run,
 * stepped as the page steps it (hand answers, edited inputs the app's schema refuses then takes,
 * Stop); an approval it stops for is answered through the workbench's service back into the app,
 * whose next call goes on as the same run, its root span linked to the paused call.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { RunSession } from '../../../contract/run-session';
import type { PauseInfo } from '../../../contract/pause';
import { AI_SDK_STEP_MARKERS } from '../read/loopscope-markers';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../../spans/trace-link-keys';
import type { Span } from '../../../spans/span';
import { checkResumeFromTrace, resumeFromTrace } from '../../../server/services/resume-service';
import { decidePause, stopRun } from '../../../server/services/run-service';
import { startAiSdkAppHarness, type AiSdkAppHarness } from '../../../server/attach/testing/ai-sdk-app-harness';
import { model, planTrip, tripTools } from '../../../../examples/apps/ai-sdk/trip-agent';
import { loopscopeTelemetry, loopscopeTools, type LoopscopeTelemetry } from './index';

const APP = 'trip-agent-test';

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('loopscope/ai-sdk in an app (real ai 7, real doors)', () => {
  let harness: AiSdkAppHarness;
  let telemetry: LoopscopeTelemetry;
  let markers: string;

  /** A call the test leaves running when it fails must not end the file with an unhandled rejection. */
function kept<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** The app's newest run, once it is not the one before. */
  const newestRun = (before?: string) => until('the app’s call to be a run', () => {
    const runId = harness.apps.list().find((app) => app.name === APP)?.runs[0]?.runId;
    return runId && runId !== before ? harness.context.runs.get(runId) : undefined;
  });
  const runNow = (runId: string) => harness.context.runs.get(runId) as RunSession;
  const pauseOf = (runId: string, match: (pause: PauseInfo) => boolean) => until('a pause', () => runNow(runId).pauses.find(match));
  const spansOf = async (traceIds: readonly string[]): Promise<Span[]> => (await Promise.all(traceIds.map((traceId) => harness.store.get(traceId)))).flatMap((spans) => spans ?? []);
  const setMode = (kind: 'run' | 'step') => harness.apps.setMode(APP, { kind });

  beforeAll(async () => {
    markers = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ai-sdk-app-markers-'));
    harness = await startAiSdkAppHarness();
    telemetry = loopscopeTelemetry({ url: harness.url, credential: harness.appSecret, name: APP });
  });

  afterAll(async () => {
    await telemetry?.shutdown();
    await harness?.close();
    await rm(markers, { recursive: true, force: true });
  });

  it('says hello: the app is on the Apps page, in Run mode, before its first call', async () => {
    const app = await until('the hello', () => harness.apps.list().find((candidate) => candidate.name === APP));
    expect(app).toMatchObject({ name: APP, pid: process.pid, mode: { kind: 'run' }, runs: [] });
    expect(telemetry).toMatchObject({ url: harness.url, appName: APP, connected: true });
  });

  it('Run mode: the call is a run, every span arrives at the OTLP door, it ends interrupted at the approval; the workbench’s answer goes into the app, whose next call goes on as the run, linked', async () => {
    const started = Date.now();
    const trip = kept(planTrip({ request: 'Plan a trip to Kyoto for 4 nights', markers }));
    const run = await newestRun();
    expect(run.label).toBe(`${APP}: generateText with trip-model`);
    expect(run.app).toMatchObject({ runtime: 'ai-sdk', runtimeName: APP, model: 'trip-model' });
    expect(run.app?.tools.map((tool) => tool.name)).toEqual(['getWeather', 'bookTrip']);
    const interrupted = await until('the run to stop for the approval', () => runNow(run.runId).status === 'interrupted' && runNow(run.runId));
    console.log(`ai-sdk app: first call interrupted ${Date.now() - started} ms after it started`);
    expect(interrupted.finishReason).toBe('tool-calls');
    expect(interrupted.interrupts).toEqual([{ kind: 'approval', toolName: 'bookTrip', toolCallId: 'book-1', input: { city: 'Kyoto', nights: 4 } }]);
    expect(interrupted.traceIds).toHaveLength(1);
    // Every span of the call, exported before its end was told: invoke_agent, two steps, two chats, one tool.
    const first = await spansOf(interrupted.traceIds);
    expect(first.map((span) => span.name).sort()).toEqual(['chat trip-model', 'chat trip-model', 'execute_tool getWeather', 'invoke_agent trip-model', 'step 1', 'step 2'].sort());
    expect(harness.received.filter((span) => span.traceId === interrupted.traceIds[0])).toHaveLength(first.length);

    // The workbench: the app waits, its tools say bookTrip waits for an approval; no answer is refused by the SDK's rule.
    const source = { traceIds: interrupted.traceIds };
    // Waited for from the moment the run is interrupted: the app asked for the answer before its end was told.
    expect(harness.apps.waitingFor(interrupted.traceIds[0])).toMatchObject({ runId: run.runId, appName: APP });
    const unanswered = await checkResumeFromTrace(harness.context, { source, respond: [], restart: [] });
    expect(unanswered.target.runsIn).toBe('waiting-app');
    expect(unanswered.validation.errors.map((issue) => issue.message).join(' ')).toContain('AI_MissingToolResultsError');
    const { run: answered } = await resumeFromTrace(harness.context, { source, respond: [], restart: [], approve: [{ name: 'bookTrip', ref: 'book-1' }] });
    expect(answered.runId).toBe(run.runId);

    // The app's loop goes on with the answer: its tool runs in the app, its next call is the same run.
    expect(await trip).toEqual({ text: 'Booked BK-KYOTO-4: Kyoto is 15°C and cloudy.', calls: 2 });
    expect(existsSync(path.join(markers, 'booked-BK-KYOTO-4.json'))).toBe(true);
    const finished = await until('the run to finish', () => runNow(run.runId).status === 'finished' && runNow(run.runId));
    expect(finished).toMatchObject({ resumes: 1, text: 'Booked BK-KYOTO-4: Kyoto is 15°C and cloudy.' });
    expect(finished.traceIds).toHaveLength(2);
    const spans = await spansOf(finished.traceIds);
    const root = (traceId: string) => spans.find((span) => span.traceId === traceId && span.parentSpanId === undefined) as Span;
    // The answering call ran only the approved tool: the model saw the whole history (getWeather's result included).
    expect(spans.filter((span) => span.traceId === finished.traceIds[1] && span.name.startsWith('execute_tool')).map((span) => span.name)).toEqual(['execute_tool bookTrip']);
    const [pausedRoot, answeringRoot] = finished.traceIds.map(root);
    expect(answeringRoot.links).toEqual([expect.objectContaining({ traceId: pausedRoot.traceId, spanId: pausedRoot.spanId, attributes: { [ANSWERS_LINK_ATTRIBUTE]: ANSWERS_LINK_VALUE } })]);
    // The graph draws the answer: the approval linked to the answering call's run of bookTrip.
    const graph = buildRunGraph(spans);
    expect(graph.summary).toMatchObject({ generates: 2 });
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });

  it('Step mode: a model call answered by hand, a tool input the app’s schema refuses and then takes, a denial the model reads', async () => {
    setMode('step');
    const trip = kept(planTrip({ request: 'Plan a trip to Kyoto for 4 nights', markers }));
    const run = await newestRun(harness.apps.list()[0].runs[0]?.runId);
    expect(run.mode).toEqual({ kind: 'step' });
    const firstModel = await pauseOf(run.runId, (pause) => pause.kind === 'model');
    expect(firstModel).toMatchObject({ modelTurn: 1, actions: ['continue', 'edit-request', 'replace-answer', 'fail'] });
    // The call's open spans travelled with the hook: the paused call is drawn before any span ended.
    const open = harness.context.runs.snapshot(run.runId)?.spanStarts.map((span) => span.name) ?? [];
    expect(open).toEqual(['invoke_agent trip-model', 'step 1', 'chat trip-model']);

    await decidePause({ context: harness.context, runId: run.runId, pauseId: firstModel.pauseId, decision: { action: 'replace-answer', parts: [{ toolRequest: { name: 'getWeather', ref: 'weather-by-hand', input: { city: 'Kyoto' } } }] } });
    const weather = await pauseOf(run.runId, (pause) => pause.tool?.ref === 'weather-by-hand');
    expect(weather).toMatchObject({ kind: 'tool', tool: { name: 'getWeather', input: { city: 'Kyoto' } } });
    // The app checks the edit against its own zod schema (city: min 1) and refuses it; the pause stays.
    await expect(decidePause({ context: harness.context, runId: run.runId, pauseId: weather.pauseId, decision: { action: 'edit-input', input: { city: '' } } })).rejects.toThrow(/city/);
    expect(runNow(run.runId).pauses.map((pause) => pause.pauseId)).toEqual([weather.pauseId]);
    await decidePause({ context: harness.context, runId: run.runId, pauseId: weather.pauseId, decision: { action: 'edit-input', input: { city: 'Osaka' } } });
    const secondModel = await pauseOf(run.runId, (pause) => pause.kind === 'model' && pause.modelTurn === 2);
    await decidePause({ context: harness.context, runId: run.runId, pauseId: secondModel.pauseId, decision: { action: 'continue' } });
    const interrupted = await until('the approval', () => runNow(run.runId).status === 'interrupted' && runNow(run.runId));
    expect(interrupted.interrupts).toEqual([expect.objectContaining({ toolName: 'bookTrip', input: { city: 'Osaka', nights: 4 } })]);

    // Denied with a reason: the answering call (still in Step mode) pauses at its model call; Continue.
    await until('the app to wait for the answer', () => harness.apps.waitingFor(interrupted.traceIds[0]));
    await resumeFromTrace(harness.context, { source: { traceIds: interrupted.traceIds }, respond: [], restart: [], deny: [{ name: 'bookTrip', ref: 'book-1', reason: 'Too expensive' }] });
    const answeringModel = await pauseOf(run.runId, (pause) => pause.kind === 'model');
    await decidePause({ context: harness.context, runId: run.runId, pauseId: answeringModel.pauseId, decision: { action: 'continue' } });
    expect(await trip).toEqual({ text: 'Not booked (Too expensive); Osaka is 15°C and cloudy.', calls: 2 });
    const finished = await until('the run to finish', () => runNow(run.runId).status === 'finished' && runNow(run.runId));
    expect(existsSync(path.join(markers, 'booked-BK-OSAKA-4.json'))).toBe(false);

    // The spans say what was done by hand, as the built-in runner's do.
    const spans = await spansOf(finished.traceIds);
    const chats = spans.filter((span) => span.name.startsWith('chat ') && span.traceId === finished.traceIds[0]);
    expect(chats.filter((span) => span.attributes[AI_SDK_STEP_MARKERS.handWritten] === 'true')).toHaveLength(1);
    const tool = spans.find((span) => span.name === 'execute_tool getWeather') as Span;
    expect(tool.attributes[AI_SDK_STEP_MARKERS.modelArguments]).toBe('{"city":"Kyoto"}');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Osaka"}');
    setMode('run');
  });

  it('Breakpoints mode chosen for the app: its call pauses only before the tool named, then runs on', async () => {
    harness.apps.setMode(APP, { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const trip = kept(planTrip({ request: 'Plan a trip to Lima for 2 nights', markers }));
    const run = await newestRun(harness.apps.list()[0].runs[0]?.runId);
    const weather = await pauseOf(run.runId, (pause) => pause.kind === 'tool');
    expect(weather.tool).toEqual({ name: 'getWeather', ref: 'weather-1', input: { city: 'Lima' } });
    expect(runNow(run.runId).pauses).toHaveLength(1);
    await decidePause({ context: harness.context, runId: run.runId, pauseId: weather.pauseId, decision: { action: 'answer', output: { city: 'Lima', tempC: 30, sky: 'sunny' } } });
    // No model call paused: the call runs on to the approval.
    const interrupted = await until('the approval', () => runNow(run.runId).status === 'interrupted' && runNow(run.runId));
    await until('the app to wait for the answer', () => harness.apps.waitingFor(interrupted.traceIds[0]));
    await resumeFromTrace(harness.context, { source: { traceIds: interrupted.traceIds }, respond: [], restart: [], deny: [{ name: 'bookTrip', ref: 'book-1', reason: 'not now' }] });
    expect(await trip).toEqual({ text: 'Not booked (not now); Lima is 30°C and sunny.', calls: 2 });
    setMode('run');
  });

  it('streamText in Step mode: its model call pauses and takes a hand-written answer', async () => {
    setMode('step');
    const before = harness.apps.list()[0].runs[0]?.runId;
    const result = streamText({ model, tools: loopscopeTools(tripTools(markers)), prompt: 'Plan a trip to Lima for 2 nights', stopWhen: stepCountIs(3) });
    const text = result.text;
    const run = await newestRun(before);
    expect(run.label).toBe(`${APP}: streamText with trip-model`);
    const pause = await pauseOf(run.runId, (candidate) => candidate.kind === 'model');
    await decidePause({ context: harness.context, runId: run.runId, pauseId: pause.pauseId, decision: { action: 'replace-answer', parts: [{ text: 'Written by hand.' }] } });
    expect(await text).toBe('Written by hand.');
    expect(await until('the run to finish', () => runNow(run.runId).status === 'finished' && runNow(run.runId))).toMatchObject({ text: 'Written by hand.' });
    setMode('run');
  });

  it('Stop at a pause ends the app’s call: generateText rejects, the run is stopped', async () => {
    setMode('step');
    const trip = kept(planTrip({ request: 'Plan a trip to Oslo for 1 night', markers }));
    const failed = trip.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    const run = await newestRun(harness.apps.list()[0].runs[0]?.runId);
    await pauseOf(run.runId, (pause) => pause.kind === 'model');
    const stopped = await stopRun(harness.context, run.runId);
    expect(stopped.status).toBe('stopped');
    expect(await failed).toContain('stopped by the user');
    setMode('run');
  });

  it('the door: hello and start want the app’s credential, end and answer the run’s own token', async () => {
    const post = (op: string, body: unknown, token?: string) =>
      fetch(`${harness.url}/attach/ai-sdk/${op}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    const start = { app: { name: 'intruder' }, runtime: 'ai-sdk', operation: 'generateText', model: { provider: 'p', modelId: 'm' }, tools: [] };
    expect((await post('start', start)).status).toBe(401);
    expect((await post('start', start, 'not-the-secret')).status).toBe(401);
    // Loopscope's own token lets an app the developer started without `loopscope start` in.
    const opened = await post('start', start, harness.apiToken);
    expect(opened.status).toBe(200);
    const { runId, token } = (await opened.json()) as { runId: string; token: string };
    expect((await post('end', { runId, traceIds: [] }, harness.appSecret)).status).toBe(401);
    expect((await post('answer', { runId }, token)).status).toBe(409);
    expect((await post('end', { runId, traceIds: [], failure: { message: 'gone' } }, token)).status).toBe(200);
    expect(runNow(runId).status).toBe('failed');
    // Ended: its token is dead, the outcome cannot be told again.
    expect((await post('end', { runId, traceIds: [], outcome: { finishReason: 'stop', text: 'rewritten', waiting: [] } }, token)).status).toBe(404);
    expect(runNow(runId)).toMatchObject({ status: 'failed', failure: { message: 'gone' } });
  });
});
