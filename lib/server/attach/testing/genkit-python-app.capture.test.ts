import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGenkitPythonApp, genkitPythonAppCommand } from './genkit-python-app';
import { checkHealth, listActions, runAction } from './reflection-calls';
import { startTelemetryRecorder, type TelemetryRecorder } from './telemetry-recorder';
import { startTestApp, type TestApp } from './test-app-process';

/**
 * The genkit Python test app (examples/apps/genkit-python, genkit 0.12.0 from PyPI) started as a
 * dev tool starts it — GENKIT_ENV=dev, GENKIT_TELEMETRY_SERVER at a recording receiver — and
 * driven only through its reflection API. Measured facts: docs/attach-runtimes.md.
 */
let recorder: TelemetryRecorder;
let app: TestApp;
let python: string;
let scratch: string;
const markerPath = () => path.join(scratch, 'marker.jsonl');
const command = () => genkitPythonAppCommand({ projectDir: process.cwd(), python });

async function markerLines(): Promise<{ runtime: string; tool: string; input: unknown; pid: number }[]> {
  const text = await readFile(markerPath(), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The spans of one trace once `count` of them arrived, each ended. */
async function spansOf(options: { traceId: string; count: number }) {
  const ofTrace = () => recorder.spans().filter((span) => span.traceId === options.traceId && span.endTimeUnixNano !== undefined && span.endTimeUnixNano !== '0');
  try {
    await recorder.waitFor({ predicate: () => ofTrace().length >= options.count, what: `${options.count} ended spans of trace ${options.traceId}` });
  } catch (error) {
    // The app logs why an export failed ("Failed to save trace …"): keep it with the failure.
    throw new Error(`${(error as Error).message}; the app printed:\n${app.output().slice(-3000)}`, { cause: error });
  }
  return ofTrace();
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'loopscope-python-app-'));
  recorder = await startTelemetryRecorder();
  python = await ensureGenkitPythonApp({ projectDir: process.cwd() });
  // command() waits for "Dev UI ready" too: genkit Python writes its runtime file before app.py has
  // defined its flows, and a run sent in that window listed fewer actions and exported no span
  // (7 of 16 recordings before this wait, 0 of 6 after; docs/attach-runtimes.md).
  app = await startTestApp({ ...command(), telemetryServerUrl: recorder.url, markerPath: markerPath() });
}, 600_000);
afterAll(async () => {
  await app?.stop();
  await recorder?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('genkit Python app, attached through the reflection API', () => {
  it('writes its runtime file under its cwd, on a port the OS chose, and answers any health check', async () => {
    expect(path.dirname(app.runtimeFile.path)).toBe(path.join(command().cwd, '.genkit', 'runtimes'));
    const port = Number(new URL(app.url).port);
    expect(path.basename(app.runtimeFile.path)).toMatch(new RegExp(`^${app.pid}-${port}-\\d{13}\\.json$`));
    expect(app.runtimeFile.runtime).toEqual({ id: `${app.pid}-${port}`, pid: app.pid, reflectionServerUrl: `http://127.0.0.1:${port}`, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/), genkitVersion: 'py/0.12.0', reflectionApiSpecVersion: 1 });
    expect(await checkHealth({ url: app.url })).toMatchObject({ ok: true, body: '{"status":"OK"}' });
    // Python does not check the ?id= of a health check (Go answers 503 for another runtime's id).
    expect(await checkHealth({ url: app.url, id: 'another-runtime' })).toMatchObject({ status: 200 });
  });

  it('lists its flows, model, tools (as /tool.v2/ keys) and util/generate, without a type field and with pydantic schemas', async () => {
    const actions = await listActions({ url: app.url });
    expect(Object.keys(actions).sort()).toEqual(['/flow/bookTrip', '/flow/planTrip', '/model/app/scripted', '/tool.v2/bookHotel', '/tool.v2/convertTemperature', '/tool.v2/getWeather', '/tool.v2/writeMarker', '/util/generate']);
    expect(Object.values(actions).some((action) => 'type' in action)).toBe(false);
    expect(actions['/flow/planTrip']).toMatchObject({ name: 'planTrip', inputSchema: { title: 'TripInput', type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] } });
    expect(actions['/tool.v2/getWeather']).toMatchObject({ inputSchema: { properties: { city: { description: 'The city to look up' } } }, outputSchema: { $defs: expect.any(Object) }, metadata: { originalOutputSchema: { title: 'Weather' } } });
    expect(actions['/util/generate'].inputSchema).toMatchObject({ title: 'GenerateActionOptions', properties: { resume: expect.any(Object) } });
  });

  it('runs the planTrip flow: the app’s own tools run (marker), 8 spans arrive at /api/traces, each posted twice (at its start and its end)', async () => {
    const before = recorder.requests.length;
    const reply = await runAction({ url: app.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
    expect(reply).toMatchObject({ status: 200, result: { finishReason: 'stop', text: 'Lisbon: {"celsius":21.0,"city":"Lisbon","conditions":"sunny"}, 69.8°F.' } });
    expect(reply.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.traceIdHeader).toBe(reply.traceId);
    expect(await markerLines()).toContainEqual(expect.objectContaining({ runtime: 'genkit-python', tool: 'writeMarker', input: { note: 'planned Lisbon' }, pid: app.pid }));
    const spans = await spansOf({ traceId: reply.traceId!, count: 8 });
    expect(spans.map((span) => span.name).sort()).toEqual(['app/scripted', 'app/scripted', 'app/scripted', 'convertTemperature', 'generate', 'getWeather', 'planTrip', 'writeMarker']);
    expect(spans.filter((span) => !span.parentSpanId).map((span) => span.attributes['genkit:path'])).toEqual(['/{planTrip,t:action,s:flow}']);
    await recorder.waitFor({ predicate: () => recorder.requests.slice(before).filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string }).traceId === reply.traceId).length >= 16, what: '16 posts' });
    const posts = recorder.requests.slice(before).filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string }).traceId === reply.traceId);
    expect(posts).toHaveLength(16);
  });

  it('an ad-hoc run of the interrupting tool is an INTERNAL error (code 13) that loses the interrupt data; the span keeps it and ends "success"', async () => {
    const reply = await runAction({ url: app.url, key: '/tool.v2/bookHotel', input: { city: 'Porto', nights: 2 } });
    expect(reply).toMatchObject({ status: 200, error: { code: 13, message: 'Error while running action bookHotel: Interrupt()', details: { traceId: reply.traceIdHeader } } });
    const [span] = await spansOf({ traceId: reply.traceIdHeader!, count: 1 });
    expect(span.attributes).toMatchObject({ 'genkit:name': 'bookHotel', 'genkit:state': 'success' });
    expect(JSON.parse(String(span.attributes['genkit:metadata:interrupt']))).toEqual({ reason: 'confirm-price', priceUsd: 240 });
  });

  it('resumes an interrupted flow’s generate through /util/generate: a restart runs the app’s tool (marker); a respond takes the bare output', async () => {
    const first = await runAction({ url: app.url, key: '/flow/bookTrip', input: { city: 'Porto' } });
    const flow = first.result as { finishReason: string; interrupts: { toolRequest: unknown; metadata: unknown }[]; messages: unknown[] };
    expect(flow).toMatchObject({ finishReason: 'interrupted', interrupts: [{ toolRequest: { name: 'bookHotel', ref: 'book-1', input: { city: 'Porto', nights: 2 } }, metadata: { interrupt: { priceUsd: 240, reason: 'confirm-price' } } }] });
    await spansOf({ traceId: first.traceId!, count: 4 });

    const [interrupt] = flow.interrupts;
    const generate = (resume: unknown) => runAction({ url: app.url, key: '/util/generate', input: { model: 'app/scripted', messages: flow.messages, tools: ['bookHotel'], resume } });
    const restarted = await generate({ restart: [{ toolRequest: interrupt.toolRequest, metadata: { resumed: { confirmed: true, confirmedBy: 'alice' } } }] });
    expect(restarted.result).toMatchObject({ finishReason: 'stop', message: { role: 'model', content: [{ text: 'Booked: {"city":"Porto","confirmedBy":"alice","nights":2}.' }] } });
    expect(await markerLines()).toContainEqual(expect.objectContaining({ tool: 'bookHotel', input: { city: 'Porto', nights: 2 }, pid: app.pid }));
    const resumeSpans = await spansOf({ traceId: restarted.traceId!, count: 3 });
    expect(resumeSpans.map((span) => span.name).sort()).toEqual(['app/scripted', 'bookHotel', 'generate']);
    expect(resumeSpans.find((span) => span.name === 'bookHotel')?.attributes['genkit:metadata:resumed']).toBe('{"confirmed": true, "confirmedBy": "alice"}');

    const responded = await generate({ respond: [{ toolResponse: { name: 'bookHotel', ref: 'book-1', output: { city: 'Porto', nights: 2, confirmedBy: 'by-hand' } } }] });
    expect(responded.result).toMatchObject({ finishReason: 'stop', message: { content: [{ text: 'Booked: {"city":"Porto","confirmedBy":"by-hand","nights":2}.' }] } });
  });

  it('streams a generate as one JSON chunk per line, then the result', async () => {
    const streamed = await runAction({ url: app.url, key: '/util/generate', stream: true, input: { model: 'app/scripted', messages: [{ role: 'user', content: [{ text: 'Plan a trip to Faro' }] }], tools: ['getWeather', 'convertTemperature', 'writeMarker'] } });
    expect(streamed.chunks).toEqual([expect.objectContaining({ role: 'tool', index: 0 }), expect.objectContaining({ role: 'tool', index: 1 })]);
    expect(streamed.result).toMatchObject({ finishReason: 'stop' });
  });

  it('an unknown action is HTTP 404 {error: string}; a /tool/ key is HTTP 500; an invalid input is HTTP 200 with code 3', async () => {
    expect(await runAction({ url: app.url, key: '/flow/nope', input: {} })).toMatchObject({ status: 404, error: { message: 'Action not found: /flow/nope' } });
    await expect(runAction({ url: app.url, key: '/tool/getWeather', input: { city: 'Porto' } })).rejects.toThrow(/answered 500 .*Internal Server Error/);
    expect(await runAction({ url: app.url, key: '/flow/planTrip', input: { city: 3 } })).toMatchObject({ status: 200, error: { code: 3, message: expect.stringContaining('Input should be a valid string') } });
  });

  it('without GENKIT_TELEMETRY_SERVER it sends nothing, and POST /api/notify does not change that; SIGINT ends it (by its own SIGINT, after removing the runtime file)', async () => {
    const quiet = await startTestApp({ ...command() });
    try {
      const notify = await fetch(`${quiet.url}/api/notify`, { method: 'POST', body: JSON.stringify({ telemetryServerUrl: recorder.url, reflectionApiSpecVersion: 1 }) });
      expect([notify.status, await notify.text()]).toEqual([200, '{}']);
      const reply = await runAction({ url: quiet.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
      expect(reply.result).toMatchObject({ finishReason: 'stop' });
      // Python's export is a worker thread: give a post that should not come time to come anyway.
      await new Promise((resolve) => setTimeout(resolve, 300));
      // By trace id: the other app's batched log posts (/api/otlp) may still arrive at this recorder.
      expect(recorder.requests.filter((request) => (request.body as { traceId?: string } | undefined)?.traceId === reply.traceId)).toEqual([]);
      expect(quiet.output()).toContain('GENKIT_TELEMETRY_SERVER is not set');
    } finally {
      const exit = await quiet.stop({ signal: 'SIGINT', keepRuntimeFile: true, timeoutMs: 10_000 });
      // genkit's handler removes the runtime file, then Python's KeyboardInterrupt ends the process by SIGINT.
      expect(exit).toMatchObject({ code: null, signal: 'SIGINT' });
      await expect(readFile(quiet.runtimeFile.path)).rejects.toThrow(/ENOENT/);
    }
  });

  it('exits 0 on SIGTERM and removes its runtime file', async () => {
    const exit = await app.stop({ signal: 'SIGTERM', keepRuntimeFile: true, timeoutMs: 10_000 });
    expect(exit).toMatchObject({ code: 0, signal: null });
    await expect(readFile(app.runtimeFile.path)).rejects.toThrow(/ENOENT/);
  });
});
