/**
 * The genkit Go test app (examples/apps/genkit-go, genkit go v1.12.0) attached as `loopscope start
 * -- <its binary>` attaches it: started by the supervisor with genkit's dev environment, dialed in
 * to Loopscope's reflection door (genkit Go's reflection API v2: no port of its own, no runtime
 * file), its actions listed as tools / flows by name, its spans counted on arrival at
 * Loopscope's real telemetry door (TraceData, OTel-Go status codes), its interrupt answered and
 * resumed IN the app through genkit Go's /util/generate (the app's bookHotel writes the marker), and
 * restarted with a new runtime id when killed. Measured facts: docs/attach-runtimes.md.
 */
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { buildGenkitGoApp, GENKIT_GO_APP_DIR } from './testing/genkit-go-app';
import { dialectOf } from '../../runtimes/index';
import { checkResumeFromTrace, resumeFromTrace } from '../services/resume-service';
import { runEnded } from '../testing/runner-context';
import { runInRuntime } from './attach-service';
import { appRuntime, EXAMPLE_APP_ACTIONS, killAndReregister, markerLines, rebindingProbe, startAttachedApp, storedSpans, until, type AttachedAppHarness } from './testing/attached-app-harness';

let harness: AttachedAppHarness;
let startedAt = 0;

beforeAll(async () => {
  // Its own binary path: the reflection-only Go test builds the same app at the same time.
  const binary = await buildGenkitGoApp({ projectDir: process.cwd(), binary: path.join(process.cwd(), '.loopscope', 'genkit-go-app-attached') });
  startedAt = Date.now();
  harness = await startAttachedApp({
    name: 'go-app',
    // genkit Go writes .genkit/runtimes/ next to the nearest go.mod above its cwd: give it one of its own.
    prepareCwd: (cwd) => copyFile(path.join(process.cwd(), GENKIT_GO_APP_DIR, 'go.mod'), path.join(cwd, 'go.mod')),
    command: ({ markerPath }) => ['env', `LOOPSCOPE_APP_MARKER=${markerPath}`, binary],
  });
}, 600_000);

afterAll(async () => {
  await harness?.close();
});

describe('an attached genkit Go app (loopscope start -- ./genkit-go-app)', () => {
  let firstRuntimeId = '';
  let flowTraceId = '';
  const traces = () => harness.doorRequests.filter((request) => request.path === '/genkit/api/traces' && request.status === 200).length;

  it('registers with its 8 actions: tool.v2 keys listed as tools with their own output schema', async () => {
    const runtime = await appRuntime(harness);
    console.log(`attach go: registered ${Date.now() - startedAt} ms after the start`);
    firstRuntimeId = runtime.id;
    expect(runtime).toMatchObject({ runtime: 'genkit-go', genkitVersion: 'go/1.12.0', projectDir: harness.appCwd, id: String(harness.attachment.app!.pid) });
    expect(runtime.reflectionWarning).toBeUndefined();
    expect(existsSync(path.join(harness.appCwd, '.genkit'))).toBe(false);
    expect(runtime.actions.map((action) => [action.type, action.key])).toEqual(EXAMPLE_APP_ACTIONS);
    expect(runtime.actions.find((action) => action.name === 'getWeather')?.outputSchema).toMatchObject({ required: ['city', 'celsius', 'conditions'] });
  });

  it('offers a page no port: the rebinding runAction of getWeather is refused on every port the app listens on, and it listens on none (issue 36)', async () => {
    await appRuntime(harness);
    const { ports, answered } = await rebindingProbe({ attachment: harness.attachment, key: '/tool.v2/getWeather' });
    expect(answered).toEqual([]);
    // The reflection API reaches Loopscope over the app's own outgoing connection instead.
    expect(ports).toEqual([]);
  });

  it('runs planTrip by name: its tools run in the app (marker), and all 10 spans arrive through the door, OK and read as genkit Go', async () => {
    const before = traces();
    const result = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'planTrip', input: { city: 'Lisbon' } } });
    console.log(`attach go: planTrip ${result.durationMs} ms`);
    expect(result).toMatchObject({ outcome: 'ok', action: '/flow/planTrip', output: { finishReason: 'stop', text: expect.stringContaining('69.8°F') } });
    expect(await markerLines(harness.markerPath)).toContainEqual(expect.objectContaining({ runtime: 'genkit-go', tool: 'writeMarker', pid: harness.attachment.app!.pid }));
    const spans = await storedSpans({ harness, traceId: result.traceId!, count: 10 });
    expect(spans).toHaveLength(10);
    expect(traces() - before).toBe(10);
    expect(spans.map((span) => span.name).sort()).toEqual(['app/scripted', 'app/scripted', 'app/scripted', 'convertTemperature', 'generate', 'generate', 'generate', 'getWeather', 'planTrip', 'writeMarker']);
    expect(spans.every((span) => span.status.code === 0 && dialectOf(span)?.id === 'genkit-go')).toBe(true);
    const { summary } = buildRunGraph(spans);
    console.log(`attach go: planTrip graph ${JSON.stringify(summary)}`);
    expect(summary).toMatchObject({ modelCalls: 3, toolCalls: 3, interrupts: 0, errors: 0, finishReason: 'stop' });
  });

  it('runs a tool by name; the interrupting tool alone is an interrupt, its span (OTel-Go code 1) stored with OTLP’s error code', async () => {
    const weather = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'getWeather', input: { city: 'Oslo' } } });
    expect(weather.outcome).toBe('ok');
    const hotel = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'bookHotel', input: { city: 'Porto', nights: 2 } } });
    // An interrupt, not an error (genkit #4637's Go form: code 13 with the data in the message).
    expect(hotel).toMatchObject({ outcome: 'interrupted', error: { message: 'The tool interrupted with { "priceUsd": 240, "reason": "confirm-price" }.' } });
    const [span] = (await harness.store.get(hotel.traceId!)) ?? [];
    expect(span.attributes['genkit:state']).toBe('error');
    expect(span.status.code).toBe(2);
  });

  it('answers the interrupt of bookTrip in the app: the restart runs the app’s bookHotel (marker) in a new trace that links to the interrupt', async () => {
    const flow = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'bookTrip', input: { city: 'Porto' } } });
    expect(flow.outcome).toBe('interrupted');
    flowTraceId = flow.traceId!;
    const flowSpans = await storedSpans({ harness, traceId: flowTraceId, count: 4 });
    expect(flowSpans).toHaveLength(4);
    expect(buildRunGraph(flowSpans).summary).toMatchObject({ interrupts: 1, errors: 0, finishReason: 'interrupted' });

    const request = { source: { traceIds: [flowTraceId] }, respond: [], restart: [{ name: 'bookHotel', ref: 'book-1', resumed: { confirmed: true, confirmedBy: 'tester' } }] };
    const check = await checkResumeFromTrace(harness.context, request);
    expect(check.resumeContext.dialect).toBe('genkit-go');
    expect(check.target.runsIn).toBe('app');
    expect(check.blockers).toEqual([]);
    expect(check.validation.errors).toEqual([]);
    // The app says no resume type (genkit Go records none): the typed bookHotel's data is unchecked, and runs.
    expect(check.validation.unchecked).toEqual([expect.objectContaining({ code: 'UNCHECKED', request: 'bookHotel#book-1' })]);
    const started = Date.now();
    const { run } = await resumeFromTrace(harness.context, { ...request, confirmWarnings: true });
    const ended = await runEnded({ context: harness.context, runId: run.runId });
    console.log(`attach go: restart in the app ${Date.now() - started} ms, ${ended.status}`);
    expect(ended.status).toBe('finished');
    expect(ended.text).toContain('tester');
    expect(await markerLines(harness.markerPath)).toContainEqual(expect.objectContaining({ runtime: 'genkit-go', tool: 'bookHotel', pid: harness.attachment.app!.pid }));
    const resumeSpans = (await harness.store.get(ended.traceIds[0])) ?? [];
    console.log(`attach go: resume trace ${resumeSpans.length} spans: ${resumeSpans.map((span) => span.name).join(', ')}`);
    expect(resumeSpans).toHaveLength(5);
    const graph = buildRunGraph([...flowSpans, ...resumeSpans]);
    expect(graph.summary).toMatchObject({ traces: 2, interrupts: 1, restarts: 1, errors: 0, finishReason: 'stop' });
  });

  it('a respond to the multipart bookHotel: a bare output is refused before anything runs (Go checks it against the envelope); {output: …} runs in the app', async () => {
    const output = { city: 'Porto', nights: 2, confirmedBy: 'by-hand' };
    const request = { source: { traceIds: [flowTraceId] }, respond: [{ name: 'bookHotel', ref: 'book-1', output }], restart: [] };
    await expect(resumeFromTrace(harness.context, { ...request, confirmWarnings: true })).rejects.toThrow(/output validation failed: data did not match expected schema:\n- \(root\): Additional property city is not allowed(.|\n)*MultipartToolResponse envelope/);
    const { run } = await resumeFromTrace(harness.context, { ...request, respond: [{ name: 'bookHotel', ref: 'book-1', output: { output } }], confirmWarnings: true });
    const ended = await runEnded({ context: harness.context, runId: run.runId });
    expect(ended.status).toBe('finished');
    // genkit Go hands the model the envelope as the tool's output.
    expect(ended.text).toBe('Booked: {"output":{"city":"Porto","confirmedBy":"by-hand","nights":2}}.');
  });

  it('restarts the app when it is killed: it re-registers with a new runtime id', async () => {
    const next = await killAndReregister({ harness, firstRuntimeId, actions: EXAMPLE_APP_ACTIONS.length, label: 'attach go' });
    expect(harness.attachment.app!.status().restarts).toBe(1);
    expect(harness.attachment.registry.get(firstRuntimeId)).toBeUndefined();
    expect(await runInRuntime({ attachment: harness.attachment, request: { runtimeId: next.id, action: 'getWeather', input: { city: 'Lima' } } })).toMatchObject({ outcome: 'ok' });
  });

  it('refuses the resume once no app defining its model is attached, saying how to attach it', async () => {
    await harness.attachment.app!.stop();
    await until('the runtime to go away', async () => {
      await harness.attachment.registry.scan();
      return harness.attachment.registry.runtimes().length === 0;
    });
    const request = { source: { traceIds: [flowTraceId] }, respond: [], restart: [{ name: 'bookHotel', ref: 'book-1', resumed: { confirmed: true } }], confirmWarnings: true };
    await expect(resumeFromTrace(harness.context, request)).rejects.toThrow(/no attached app defines its model app\/scripted: start your app with `loopscope start -- /);
  });
});
