/**
 * A real genkit JS app (examples/apps/genkit-js) attached as `loopscope start -- node --import
 * tsx app.ts` attaches it: the supervisor starts it with genkit's dev-mode environment, it dials
 * in to Loopscope's reflection door (and listens on no port a web page could reach), its spans
 * arrive at Loopscope's real telemetry door (the HTTP server's fast path: guard, body limit,
 * TraceData reader, store) and are counted; its flow runs,
 * its interrupt is answered and resumed IN the app (the app's tool writes a marker), and when it
 * is killed it comes back with a new runtime id.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { CAPTURED_THROUGH_ATTRIBUTE } from '../../spans/loopscope-attributes';
import type { TraceStore } from '../../store/trace-store';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import { checkResumeFromTrace, resumeFromTrace } from '../services/resume-service';
import { runEnded } from '../testing/runner-context';
import { ANSWERED_BY_HAND_ATTRIBUTE } from '../../runtimes/genkit-js/read/loopscope-markers';
import { decidePause, setBreakpoints, stopRun } from '../services/run-service';
import { listRuntimes, runInRuntime, type Attachment } from './attach-service';
import { startAttachedStepRun } from './attached-generate';
import { answerStepDoor } from './step-door';
import { rebindingProbe, startAttachedApp, until, type AttachedAppHarness } from './testing/attached-app-harness';

const appDir = path.join(process.cwd(), 'examples/apps/genkit-js');

describe('an attached genkit JS app (loopscope start -- node --import tsx app.ts)', () => {
  let harness: AttachedAppHarness;
  let markers: string;
  // The harness's parts, as the tests below name them.
  let store: TraceStore;
  let attachment: Attachment;
  let context: AppContext;
  const doorRequests = () => harness.doorRequests;

  beforeAll(async () => {
    markers = await mkdtemp(path.join(os.tmpdir(), 'loopscope-attach-markers-'));
    rmSync(path.join(appDir, '.genkit'), { recursive: true, force: true });
    // The JS example runs in its own folder (it resolves genkit from the repo): its runtime file lands there.
    harness = await startAttachedApp({ name: 'js-app', cwd: appDir, env: { EXAMPLE_MARKERS_DIR: markers }, command: () => [process.execPath, '--import', 'tsx', 'app.ts'] });
    ({ store, attachment, context } = harness);
  });

  afterAll(async () => {
    await harness?.close();
    await rm(markers, { recursive: true, force: true });
  });

  let firstRuntimeId = '';
  let flowTraceId = '';

  it('registers: the app dials in to the reflection door (no runtime file) and its actions are listed with schemas', async () => {
    const started = Date.now();
    const listed = await until('the app to register', async () => {
      const { runtimes } = await listRuntimes(attachment);
      return runtimes.find((runtime) => runtime.actions.some((action) => action.key === '/flow/planTrip'));
    });
    console.log(`attach: app registered ${Date.now() - started} ms after start`);
    firstRuntimeId = listed.id;
    expect(listed.runtime).toBe('genkit-js');
    expect(listed.name).toBe('trip-planner');
    // genkit's reflection API v2 registers the runtime by its pid; no port, so no runtime file either.
    expect(listed.id).toBe(String(attachment.app!.pid));
    expect(listed.reflectionWarning).toBeUndefined();
    expect(existsSync(path.join(appDir, '.genkit', 'runtimes')) ? readdirSync(path.join(appDir, '.genkit', 'runtimes')) : []).toEqual([]);
    const keys = listed.actions.map((action) => action.key);
    expect(keys).toEqual(expect.arrayContaining(['/flow/planTrip', '/tool/getWeather', '/tool/bookTrip', '/tool/askTraveler', '/model/demo/trip-model', '/util/generate']));
    // Flows first, then tools, models, util (reflection-actions.ts).
    expect(listed.actions[0].type).toBe('flow');
    const flow = listed.actions.find((action) => action.key === '/flow/planTrip')!;
    expect(JSON.stringify(flow.inputSchema)).toContain('"budget"');
    // The app was given genkit's dev environment and not Loopscope's token.
    const env = attachment.app!.status();
    expect(env.state).toBe('running');
    expect(env.logs.some((line) => line.text.includes('GENKIT_ENV=dev'))).toBe(true);
  });

  it('offers a page no port: the rebinding runAction of getWeather is refused on every port the app listens on, and it listens on none (issue 36)', async () => {
    await until('the app to register', async () => (await listRuntimes(attachment)).runtimes.find((runtime) => runtime.actions.some((action) => action.key === '/tool/getWeather')));
    const { ports, answered } = await rebindingProbe({ attachment, key: '/tool/getWeather' });
    expect(answered).toEqual([]);
    // The reflection API reaches Loopscope over the app's own outgoing connection instead.
    expect(ports).toEqual([]);
  });

  it('runs the flow: interrupted, and all 5 of its spans arrive through the genkit telemetry door', async () => {
    const result = await runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: 'planTrip', input: { city: 'Rome', nights: 3 } } });
    expect(result.outcome).toBe('interrupted');
    expect(result.output).toMatchObject({ finishReason: 'interrupted', interrupts: ['bookTrip'] });
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    flowTraceId = result.traceId!;
    // runInRuntime waited for the root span (genkit answers before its exports are done): all are stored.
    const spans = (await store.get(flowTraceId)) ?? [];
    expect(spans.map((span) => span.name).sort()).toEqual(['bookTrip', 'demo/trip-model', 'generate', 'getWeather', 'planTrip']);
    expect(spans.every((span) => span.resource[CAPTURED_THROUGH_ATTRIBUTE] === 'genkit-telemetry')).toBe(true);
    expect(doorRequests().filter((request) => request.path === '/genkit/api/traces' && request.status === 200).length).toBeGreaterThanOrEqual(5);
    const graph = buildRunGraph(spans);
    expect(graph.summary).toMatchObject({ generates: 1, modelCalls: 1, toolCalls: 2, interrupts: 1, errors: 0, finishReason: 'interrupted' });
  });

  it('a tool run alone that interrupts is an interrupt, not an error (genkit #4637)', async () => {
    const result = await runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: '/tool/bookTrip', input: { city: 'Oslo', nights: 1, travelers: [] } } });
    expect(result.outcome).toBe('interrupted');
    expect(result.note).toContain('#4637');
    const plain = await runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: 'getWeather', input: { city: 'Oslo' } } });
    expect(plain).toMatchObject({ outcome: 'ok', output: { city: 'Oslo', tempC: 21 } });
    const bad = await runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: 'getWeather', input: { town: 'Oslo' } } });
    expect(bad.outcome).toBe('error');
    expect(bad.error?.code).toBe('INVALID_ARGUMENT');
  });

  it('answers the interrupt in the app: the restart runs the app’s own bookTrip (marker written) and links into the graph', async () => {
    const request = { source: { traceIds: [flowTraceId] }, respond: [], restart: [{ name: 'bookTrip', ref: 'b1', resumed: { confirmedBy: 'tester' } }] };
    const check = await checkResumeFromTrace(context, request);
    expect(check.target.runsIn).toBe('app');
    expect(check.blockers).toEqual([]);
    const started = Date.now();
    const { run } = await resumeFromTrace(context, { ...request, confirmWarnings: true });
    const ended = await runEnded({ context, runId: run.runId });
    console.log(`attach: resume in the app ended in ${Date.now() - started} ms`);
    expect(ended.status).toBe('finished');
    expect(ended.text).toContain('BK-ROME-3');
    const written = readdirSync(markers);
    expect(written).toContain('booked-BK-ROME-3.json');
    const marker = JSON.parse(readFileSync(path.join(markers, 'booked-BK-ROME-3.json'), 'utf8'));
    expect(marker).toMatchObject({ confirmedBy: 'tester', pid: attachment.app!.pid });
    const resumeTraceId = ended.traceIds[0];
    const resumeSpans = (await store.get(resumeTraceId)) ?? [];
    console.log(`attach: resume trace spans ${resumeSpans.length}: ${resumeSpans.map((span) => span.name).join(', ')}`);
    // The /util/generate root, the restarted bookTrip (resumed), the model turn in its nested generate; the respond-free getWeather reuses its pendingOutput (no span).
    expect(resumeSpans.map((span) => span.name).sort()).toEqual(['bookTrip', 'demo/trip-model', 'generate', 'generate']);
    const both: Span[] = [...((await store.get(flowTraceId)) ?? []), ...resumeSpans];
    const graph = buildRunGraph(both);
    expect(graph.summary).toMatchObject({ traces: 2, interrupts: 1, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' });
  });

  const tripGenerate = { model: 'demo/trip-model', messages: [{ role: 'user', content: [{ text: 'Plan a trip to Kyoto for 4 nights.' }] }], tools: ['getWeather', 'bookTrip'] };
  const pausesOf = (runId: string, count: number) => until(`${count} pause(s) of run ${runId}`, () => ((context.runs.get(runId)?.pauses.length ?? 0) >= count ? context.runs.get(runId)!.pauses : undefined));

  it('steps a generate in the app (plugins: [loopscope()]): its model call and each tool pause, a decision the tool schema refuses stays paused, a hand answer and an interrupt', async () => {
    const started = Date.now();
    const run = await startAttachedStepRun({ context, runtimeId: firstRuntimeId, action: '/util/generate', input: tripGenerate, mode: { kind: 'step' } });
    expect(run.status).toBe('running');
    const [modelPause] = await pausesOf(run.runId, 1);
    console.log(`attach step: first pause ${Date.now() - started} ms after the start`);
    expect(modelPause).toMatchObject({ kind: 'model', modelTurn: 1 });
    // The step named its trace: the run follows it live.
    expect(context.runs.get(run.runId)!.traceIds).toHaveLength(1);
    await decidePause({ context, runId: run.runId, pauseId: modelPause.pauseId, decision: { action: 'continue' } });
    // genkit runs the two requested tools side by side: both pause.
    const toolPauses = await pausesOf(run.runId, 2);
    expect(toolPauses.map((pause) => pause.tool?.name).sort()).toEqual(['bookTrip', 'getWeather']);
    const weather = toolPauses.find((pause) => pause.tool?.name === 'getWeather')!;
    expect(weather.tool?.input).toEqual({ city: 'Kyoto' });
    // The app checks the decision against its own tool's output schema: refused, the pause stays.
    await expect(decidePause({ context, runId: run.runId, pauseId: weather.pauseId, decision: { action: 'answer', output: { city: 'Kyoto' } } })).rejects.toThrow(/tempC/);
    expect(context.runs.get(run.runId)!.pauses.map((pause) => pause.pauseId)).toContain(weather.pauseId);
    await decidePause({ context, runId: run.runId, pauseId: weather.pauseId, decision: { action: 'answer', output: { city: 'Kyoto', tempC: 9, sky: 'rain' } } });
    const book = toolPauses.find((pause) => pause.tool?.name === 'bookTrip')!;
    await decidePause({ context, runId: run.runId, pauseId: book.pauseId, decision: { action: 'continue' } });
    const ended = await runEnded({ context, runId: run.runId });
    console.log(`attach step: run ended ${ended.status} ${Date.now() - started} ms after the start`);
    expect(ended.status).toBe('interrupted');
    expect(ended.pauses).toEqual([]);
    const spans = (await store.get(ended.traceIds[0])) ?? [];
    console.log(`attach step: ${spans.length} spans: ${spans.map((span) => span.name).join(', ')}`);
    const handAnswered = spans.filter((span) => span.attributes[ANSWERED_BY_HAND_ATTRIBUTE] === 'true');
    expect(handAnswered.map((span) => span.name)).toEqual(['getWeather']);
    expect(spans.filter((span) => span.name === 'demo/trip-model')).toHaveLength(1);
    const graph = buildRunGraph(spans);
    expect(graph.summary).toMatchObject({ modelCalls: 1, interrupts: 1, errors: 0, finishReason: 'interrupted' });
    // The token ends with the run: the door refuses it.
    await expect(answerStepDoor({ steps: context.attachedSteps, op: 'hook', authorization: 'Bearer x', body: { runId: run.runId, pause: { kind: 'model', modelTurn: 1, actions: [] } } })).rejects.toThrow(/No stepped run/);
  });

  it('breakpoints on a tool pause only there; Stop ends the run in the app with the user’s reason', async () => {
    const run = await startAttachedStepRun({ context, runtimeId: firstRuntimeId, action: '/util/generate', input: tripGenerate, mode: { kind: 'breakpoints', breakpoints: { tools: ['bookTrip'], modelTurns: [] } } });
    const [pause] = await pausesOf(run.runId, 1);
    expect(pause).toMatchObject({ kind: 'tool', tool: { name: 'bookTrip' } });
    // A wrong token is refused by name.
    await expect(answerStepDoor({ steps: context.attachedSteps, op: 'wait', authorization: 'Bearer wrong-token-of-this-run', body: { runId: run.runId, pauseId: pause.pauseId } })).rejects.toThrow(/step token of run .* is wrong/);
    await setBreakpoints({ context, runId: run.runId, breakpoints: { tools: ['bookTrip', 'getWeather'], modelTurns: [] } });
    expect(context.runs.get(run.runId)!.mode.breakpoints?.tools).toEqual(['bookTrip', 'getWeather']);
    await stopRun(context, run.runId);
    const ended = await runEnded({ context, runId: run.runId });
    expect(ended.status).toBe('stopped');
    expect(ended.failure?.message).toContain('stopped by the user');
  });

  it('steps the app’s own flow: the generate inside planTrip pauses where the breakpoints say, and a hand answer finishes it', async () => {
    const run = await startAttachedStepRun({ context, runtimeId: firstRuntimeId, action: 'planTrip', input: { city: 'Lima', nights: 2 }, mode: { kind: 'breakpoints', breakpoints: { tools: ['bookTrip'], modelTurns: [1] } } });
    expect(run.label).toBe('trip-planner: flow planTrip');
    const [modelPause] = await pausesOf(run.runId, 1);
    expect(modelPause).toMatchObject({ kind: 'model', modelTurn: 1 });
    await decidePause({ context, runId: run.runId, pauseId: modelPause.pauseId, decision: { action: 'continue' } });
    // getWeather has no breakpoint: it runs; bookTrip pauses.
    const [book] = await pausesOf(run.runId, 1);
    expect(book).toMatchObject({ kind: 'tool', tool: { name: 'bookTrip', input: { city: 'Lima', nights: 2 } } });
    await decidePause({ context, runId: run.runId, pauseId: book.pauseId, decision: { action: 'answer', output: { booked: true, reference: 'BK-BY-HAND', confirmedBy: 'tester' } } });
    const ended = await runEnded({ context, runId: run.runId });
    expect(ended.status).toBe('finished');
    expect(ended.text).toContain('BK-BY-HAND');
    const spans = (await store.get(ended.traceIds[0])) ?? [];
    expect(spans.map((span) => span.name)).toContain('planTrip');
    expect(spans.filter((span) => span.attributes[ANSWERED_BY_HAND_ATTRIBUTE] === 'true').map((span) => span.name)).toEqual(['bookTrip']);
    // The same flow run without a mode is the app's own, untouched: it interrupts at bookTrip as always.
    const plain = await runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: 'planTrip', input: { city: 'Lima', nights: 2 } } });
    expect(plain.outcome).toBe('interrupted');
  });

  it('refuses to step what cannot be stepped, by name', async () => {
    await expect(startAttachedStepRun({ context, runtimeId: 'nope', action: '/util/generate', input: tripGenerate, mode: { kind: 'step' } })).rejects.toThrow(/No attached runtime has the id "nope"/);
    await expect(startAttachedStepRun({ context, runtimeId: firstRuntimeId, action: '/util/generate', input: 'hello', mode: { kind: 'step' } })).rejects.toThrow(/input must be an object/);
    await expect(startAttachedStepRun({ context, runtimeId: firstRuntimeId, action: 'getWeather', input: { city: 'Lima' }, mode: { kind: 'step' } })).rejects.toThrow(/Only a generate \(\/util\/generate\) or a flow can be stepped, not the tool \/tool\/getWeather/);
  });

  it('restarts the app when it is killed: it re-registers with a new runtime id', async () => {
    const oldPid = attachment.app!.pid!;
    const killedAt = Date.now();
    process.kill(oldPid, 'SIGKILL');
    const next = await until('the app to re-register', async () => {
      const { runtimes } = await listRuntimes(attachment);
      return runtimes.find((runtime) => runtime.id !== firstRuntimeId && runtime.actions.length > 0);
    });
    console.log(`attach: killed app re-registered after ${Date.now() - killedAt} ms`);
    expect(next.pid).not.toBe(oldPid);
    expect(attachment.app!.status().restarts).toBe(1);
    expect(attachment.registry.get(firstRuntimeId)).toBeUndefined();
    const result = await runInRuntime({ attachment, request: { runtimeId: next.id, action: 'getWeather', input: { city: 'Lima' } } });
    expect(result.outcome).toBe('ok');
    await expect(runInRuntime({ attachment, request: { runtimeId: firstRuntimeId, action: 'getWeather', input: { city: 'Lima' } } })).rejects.toThrow(/new id/);
  });

  it('refuses to resume an app trace when no app defining its model is attached, saying how to attach it', async () => {
    await attachment.app!.stop();
    await until('the runtime to go away', async () => {
      await attachment.registry.scan();
      return attachment.registry.runtimes().length === 0 ? true : undefined;
    });
    const request = { source: { traceIds: [flowTraceId] }, respond: [], restart: [{ name: 'bookTrip', ref: 'b1' }], confirmWarnings: true };
    await expect(resumeFromTrace(context, request)).rejects.toThrow(/no attached app defines its model demo\/trip-model: start your app with `loopscope start -- /);
    expect(existsSync(path.join(appDir, '.genkit', 'runtimes')) ? readdirSync(path.join(appDir, '.genkit', 'runtimes')) : []).toEqual([]);
  });
});
