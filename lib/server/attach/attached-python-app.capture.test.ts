/**
 * The genkit Python test app (examples/apps/genkit-python, genkit 0.12.0 from PyPI) attached as
 * `loopscope start -- .venv/bin/python app.py` attaches it: started by the supervisor with
 * genkit's dev environment, dialed in to Loopscope's reflection door (genkit Python's reflection
 * API v2: no port of its own, no runtime file) — and attached only once its action list is stable,
 * since genkit Python dials in before app.py has defined its flows — its
 * actions listed as tools / flows by name, its spans counted on arrival at Loopscope's real
 * telemetry door (two TraceData posts per span), its interrupt answered and resumed IN the app
 * through /util/generate (the app's bookHotel writes the marker), and restarted with a new id
 * when killed. Measured facts: docs/attach-runtimes.md.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { ensureGenkitPythonApp, GENKIT_PYTHON_APP_DIR } from './testing/genkit-python-app';
import { checkResumeFromTrace, resumeFromTrace } from '../services/resume-service';
import { runEnded } from '../testing/runner-context';
import { runInRuntime } from './attach-service';
import { appRuntime, EXAMPLE_APP_ACTIONS, killAndReregister, markerLines, rebindingProbe, startAttachedApp, storedSpans, until, type AttachedAppHarness } from './testing/attached-app-harness';

let harness: AttachedAppHarness;
let startedAt = 0;

beforeAll(async () => {
  const python = await ensureGenkitPythonApp({ projectDir: process.cwd() });
  startedAt = Date.now();
  harness = await startAttachedApp({
    name: 'python-app',
    // genkit Python writes .genkit/runtimes/ in its cwd: a scratch folder of its own.
    command: ({ markerPath }) => ['env', `LOOPSCOPE_APP_MARKER=${markerPath}`, python, path.join(process.cwd(), GENKIT_PYTHON_APP_DIR, 'app.py')],
  });
}, 600_000);

afterAll(async () => {
  await harness?.close();
});

describe('an attached genkit Python app (loopscope start -- .venv/bin/python app.py)', () => {
  let firstRuntimeId = '';
  let flowTraceId = '';
  // genkit Python posts to /api/traces, not under GENKIT_TELEMETRY_SERVER's /genkit (genkit-telemetry.ts).
  const traces = () => harness.doorRequests.filter((request) => request.path === '/api/traces' && request.status === 200).length;

  it('registers only once all 8 actions are defined (it dials in first), tool.v2 keys listed as tools', async () => {
    const runtime = await appRuntime(harness);
    console.log(`attach python: registered ${Date.now() - startedAt} ms after the start`);
    firstRuntimeId = runtime.id;
    expect(runtime).toMatchObject({ runtime: 'genkit-python', genkitVersion: 'py/0.12.0', projectDir: harness.appCwd, id: String(harness.attachment.app!.pid) });
    expect(runtime.reflectionWarning).toBeUndefined();
    expect(existsSync(path.join(harness.appCwd, '.genkit'))).toBe(false);
    expect(runtime.actions.map((action) => [action.type, action.key])).toEqual(EXAMPLE_APP_ACTIONS);
    expect(runtime.actions.find((action) => action.name === 'getWeather')?.outputSchema).toMatchObject({ title: 'Weather' });
  });

  it('offers a page no port: the rebinding runAction of getWeather is refused on every port the app listens on, and it listens on none (issue 36)', async () => {
    await appRuntime(harness);
    const { ports, answered } = await rebindingProbe({ attachment: harness.attachment, key: '/tool.v2/getWeather' });
    expect(answered).toEqual([]);
    // The reflection API reaches Loopscope over the app's own outgoing connection instead.
    expect(ports).toEqual([]);
  });

  it('runs planTrip by name, first thing after registering: its tools run in the app (marker), and all 8 spans arrive (16 posts)', async () => {
    const before = traces();
    const result = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'planTrip', input: { city: 'Lisbon' } } });
    console.log(`attach python: planTrip ${result.durationMs} ms`);
    expect(result).toMatchObject({ outcome: 'ok', action: '/flow/planTrip', output: { finishReason: 'stop', text: expect.stringContaining('69.8°F') } });
    expect(await markerLines(harness.markerPath)).toContainEqual(expect.objectContaining({ runtime: 'genkit-python', tool: 'writeMarker', pid: harness.attachment.app!.pid }));
    const spans = await storedSpans({ harness, traceId: result.traceId!, count: 8 });
    expect(spans).toHaveLength(8);
    await until('16 posts', () => traces() - before >= 16);
    expect(traces() - before).toBe(16);
    expect(spans.map((span) => span.name).sort()).toEqual(['app/scripted', 'app/scripted', 'app/scripted', 'convertTemperature', 'generate', 'getWeather', 'planTrip', 'writeMarker']);
    expect(spans.every((span) => span.resource['telemetry.sdk.language'] === 'python' && span.status.code === 0)).toBe(true);
    const { summary } = buildRunGraph(spans);
    console.log(`attach python: planTrip graph ${JSON.stringify(summary)}`);
    expect(summary).toMatchObject({ modelCalls: 3, toolCalls: 3, interrupts: 0, errors: 0, finishReason: 'stop' });
  });

  it('runs a tool by name; the interrupting tool alone is an interrupt, its data on the span', async () => {
    const weather = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'getWeather', input: { city: 'Oslo' } } });
    expect(weather.outcome).toBe('ok');
    const hotel = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'bookHotel', input: { city: 'Porto', nights: 2 } } });
    // An interrupt, not an error: Python's code 13 has no data; the span has it.
    expect(hotel).toMatchObject({ outcome: 'interrupted', error: { code: 'INTERRUPTED' } });
    const [span] = await storedSpans({ harness, traceId: hotel.traceId!, count: 1 });
    expect(JSON.parse(String(span.attributes['genkit:metadata:interrupt']))).toEqual({ reason: 'confirm-price', priceUsd: 240 });
  });

  it('answers the interrupt of bookTrip in the app: a restart runs the app’s bookHotel (marker), a respond takes the bare output', async () => {
    const flow = await runInRuntime({ attachment: harness.attachment, request: { runtimeId: firstRuntimeId, action: 'bookTrip', input: { city: 'Porto' } } });
    expect(flow.outcome).toBe('interrupted');
    flowTraceId = flow.traceId!;
    const flowSpans = await storedSpans({ harness, traceId: flowTraceId, count: 4 });
    console.log(`attach python: bookTrip ${flowSpans.length} spans: ${flowSpans.map((span) => span.name).join(', ')}; ${JSON.stringify(buildRunGraph(flowSpans).summary)}`);
    expect(buildRunGraph(flowSpans).summary).toMatchObject({ interrupts: 1, errors: 0, finishReason: 'interrupted' });

    const request = { source: { traceIds: [flowTraceId] }, respond: [], restart: [{ name: 'bookHotel', ref: 'book-1', resumed: { confirmed: true, confirmedBy: 'tester' } }] };
    const check = await checkResumeFromTrace(harness.context, request);
    expect(check.target.runsIn).toBe('app');
    expect(check.blockers).toEqual([]);
    expect(check.validation.errors).toEqual([]);
    const started = Date.now();
    const { run } = await resumeFromTrace(harness.context, { ...request, confirmWarnings: true });
    const ended = await runEnded({ context: harness.context, runId: run.runId });
    console.log(`attach python: restart in the app ${Date.now() - started} ms, ${ended.status} ${ended.text ?? ''} ${JSON.stringify(ended.failure ?? {})}`);
    expect(ended.status).toBe('finished');
    expect(ended.text).toBe('Booked: {"city":"Porto","confirmedBy":"tester","nights":2}.');
    expect(await markerLines(harness.markerPath)).toContainEqual(expect.objectContaining({ runtime: 'genkit-python', tool: 'bookHotel', pid: harness.attachment.app!.pid }));
    const resumeSpans = await storedSpans({ harness, traceId: ended.traceIds[0], count: 3 });
    console.log(`attach python: resume trace ${resumeSpans.length} spans: ${resumeSpans.map((span) => span.name).join(', ')}`);
    expect(resumeSpans.map((span) => span.name).sort()).toEqual(['app/scripted', 'bookHotel', 'generate']);
    const graph = buildRunGraph([...flowSpans, ...resumeSpans]);
    expect(graph.summary).toMatchObject({ traces: 2, interrupts: 1, restarts: 1, errors: 0, finishReason: 'stop' });

    const responded = await resumeFromTrace(harness.context, { source: { traceIds: [flowTraceId] }, respond: [{ name: 'bookHotel', ref: 'book-1', output: { city: 'Porto', nights: 2, confirmedBy: 'by-hand' } }], restart: [], confirmWarnings: true });
    const respondEnded = await runEnded({ context: harness.context, runId: responded.run.runId });
    expect(respondEnded.text).toBe('Booked: {"city":"Porto","confirmedBy":"by-hand","nights":2}.');
  });

  it('restarts the app when it is killed: it re-registers with a new runtime id', async () => {
    const next = await killAndReregister({ harness, firstRuntimeId, actions: EXAMPLE_APP_ACTIONS.length, label: 'attach python' });
    expect(harness.attachment.app!.status().restarts).toBe(1);
    expect(harness.attachment.registry.get(firstRuntimeId)).toBeUndefined();
    expect(await runInRuntime({ attachment: harness.attachment, request: { runtimeId: next.id, action: 'getWeather', input: { city: 'Lima' } } })).toMatchObject({ outcome: 'ok' });
  });
});
