import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/free-port';
import { buildGenkitGoApp, genkitGoAppCommand, GENKIT_GO_APP_DIR } from './genkit-go-app';
import { checkHealth, listActions, runAction } from './reflection-calls';
import { startTelemetryRecorder, type TelemetryRecorder } from './telemetry-recorder';
import { startTestApp, type TestApp } from './test-app-process';

/**
 * The genkit Go test app (examples/apps/genkit-go, genkit go v1.12.0) started as a dev tool
 * starts it — GENKIT_ENV=dev, GENKIT_TELEMETRY_SERVER at a recording receiver — and driven
 * only through its reflection API. Measured facts: docs/attach-runtimes.md.
 */
let recorder: TelemetryRecorder;
let app: TestApp;
let port: number;
let scratch: string;
const markerPath = () => path.join(scratch, 'marker.jsonl');
const appDir = path.join(process.cwd(), GENKIT_GO_APP_DIR);
/** A second copy of the app, from the binary beforeAll built. */
const goApp = () => genkitGoAppCommand({ projectDir: process.cwd(), binary: path.join(process.cwd(), '.loopscope', 'genkit-go-app') });

async function markerLines(): Promise<{ runtime: string; tool: string; input: unknown; pid: number }[]> {
  const text = await readFile(markerPath(), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The spans of one trace once `count` of them arrived. */
async function spansOf(options: { traceId: string; count: number }) {
  const ofTrace = () => recorder.spans().filter((span) => span.traceId === options.traceId);
  await recorder.waitFor({ predicate: () => ofTrace().length >= options.count, what: `${options.count} spans of trace ${options.traceId}` });
  return ofTrace();
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-app-'));
  recorder = await startTelemetryRecorder();
  const binary = await buildGenkitGoApp({ projectDir: process.cwd() });
  port = await freePort();
  // A free port of our own: genkit Go otherwise scans from 3100, which other genkit apps on the machine may hold.
  app = await startTestApp({ ...genkitGoAppCommand({ projectDir: process.cwd(), binary }), telemetryServerUrl: recorder.url, markerPath: markerPath(), env: { GENKIT_REFLECTION_PORT: String(port) } });
}, 600_000);
afterAll(async () => {
  await app?.stop();
  await recorder?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('genkit Go app, attached through the reflection API', () => {
  it('writes its runtime file under the go.mod folder, named <pid>-<port>-<timestamp>.json, and answers health checks by pid-port id', async () => {
    expect(path.dirname(app.runtimeFile.path)).toBe(path.join(appDir, '.genkit', 'runtimes'));
    expect(path.basename(app.runtimeFile.path)).toMatch(new RegExp(`^${app.pid}-${port}-\\d{4}-\\d\\d-\\d\\dT\\d\\d_\\d\\d_\\d\\dZ\\.json$`));
    expect(app.runtimeFile.runtime).toEqual({ id: `${app.pid}-${port}`, pid: app.pid, reflectionServerUrl: `http://127.0.0.1:${port}`, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d_\d\d_\d\dZ$/), genkitVersion: 'go/1.12.0', reflectionApiSpecVersion: 1 });
    expect(await checkHealth({ url: app.url })).toMatchObject({ ok: true, status: 200, body: '' });
    expect(await checkHealth({ url: app.url, id: app.runtimeFile.runtime.id })).toMatchObject({ status: 200 });
    expect(await checkHealth({ url: app.url, id: 'another-runtime' })).toMatchObject({ status: 503, body: 'Invalid runtime ID\n' });
  });

  it('lists its flows, model, tools (as /tool.v2/ keys) and the util/generate action, with JSON schemas', async () => {
    const actions = await listActions({ url: app.url });
    expect(Object.keys(actions).sort()).toEqual(['/flow/bookTrip', '/flow/planTrip', '/model/app/scripted', '/tool.v2/bookHotel', '/tool.v2/convertTemperature', '/tool.v2/getWeather', '/tool.v2/writeMarker', '/util/generate']);
    expect(actions['/flow/planTrip']).toMatchObject({ type: 'flow', name: 'planTrip', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    // A tool.v2's outputSchema is the multipart envelope; the tool's own output schema is in metadata.
    expect(actions['/tool.v2/getWeather']).toMatchObject({ type: 'tool.v2', inputSchema: { properties: { city: { type: 'string', description: 'The city to look up' } } }, outputSchema: { properties: { content: { type: 'array' }, output: true } }, metadata: { originalOutputSchema: { required: ['city', 'celsius', 'conditions'] }, tool: { multipart: false } } });
    // The interruptible tool is multipart and advertises no resume schema.
    expect(actions['/tool.v2/bookHotel'].metadata).toEqual({ name: 'bookHotel', description: 'Books a hotel; a human must confirm the price first.', type: 'tool.v2', tool: { multipart: true } });
    expect(actions['/util/generate']).toMatchObject({ type: 'util', name: 'generate' });
  });

  it('runs the planTrip flow: the app’s own tools run (marker), the trace id comes in a header and the body, 10 spans arrive at /api/traces, one post each', async () => {
    const before = recorder.requests.length;
    const reply = await runAction({ url: app.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
    expect(reply).toMatchObject({ status: 200, result: { finishReason: 'stop', text: 'Lisbon: {"celsius":21,"city":"Lisbon","conditions":"sunny"}, 69.8°F.' } });
    expect(reply.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.traceIdHeader).toBe(reply.traceId);
    expect(await markerLines()).toContainEqual(expect.objectContaining({ runtime: 'genkit-go', tool: 'writeMarker', input: { note: 'planned Lisbon' }, pid: app.pid }));
    const spans = await spansOf({ traceId: reply.traceId!, count: 10 });
    expect(spans.map((span) => span.name).sort()).toEqual(['app/scripted', 'app/scripted', 'app/scripted', 'convertTemperature', 'generate', 'generate', 'generate', 'getWeather', 'planTrip', 'writeMarker']);
    expect(spans.filter((span) => !span.parentSpanId).map((span) => span.attributes['genkit:path'])).toEqual(['/{planTrip,t:flow}']);
    const posts = recorder.requests.slice(before).filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string }).traceId === reply.traceId);
    expect(posts).toHaveLength(10);
    expect(posts.every((post) => Object.keys((post.body as { spans: object }).spans).length === 1)).toBe(true);
  });

  it('an ad-hoc run of the interrupting tool is an INTERNAL error (code 13) whose message carries the interrupt data; its span ends in error', async () => {
    const reply = await runAction({ url: app.url, key: '/tool.v2/bookHotel', input: { city: 'Porto', nights: 2 } });
    expect(reply.status).toBe(200);
    expect(reply.error).toMatchObject({ code: 13, details: { traceId: reply.traceIdHeader } });
    const [headline, data] = reply.error!.message.split('\n\n');
    expect(headline).toBe('tool execution interrupted: ');
    expect(JSON.parse(data)).toEqual({ priceUsd: 240, reason: 'confirm-price' });
    const [span] = await spansOf({ traceId: reply.traceIdHeader!, count: 1 });
    expect(span.attributes).toMatchObject({ 'genkit:name': 'bookHotel', 'genkit:state': 'error', 'genkit:isRoot': true });
    expect(span.attributes['genkit:metadata:interrupt']).toBeUndefined();
    // Go writes OTel-Go's codes.Error (1) as the TraceData status code; in OTLP (and JS's TraceData) 1 is OK and 2 is ERROR.
    expect(span.status).toEqual({ code: 1, message: reply.error!.message });
  });

  it('resumes an interrupted flow’s generate through /util/generate: a restart runs the app’s tool (marker), a respond needs the multipart envelope', async () => {
    const first = await runAction({ url: app.url, key: '/flow/bookTrip', input: { city: 'Porto' } });
    const flow = first.result as { finishReason: string; interrupts: { toolRequest: unknown; metadata: unknown }[]; messages: unknown[] };
    expect(flow).toMatchObject({ finishReason: 'interrupted', interrupts: [{ toolRequest: { name: 'bookHotel', ref: 'book-1', input: { city: 'Porto', nights: 2 } }, metadata: { interrupt: { priceUsd: 240, reason: 'confirm-price' } } }] });
    expect((await spansOf({ traceId: first.traceId!, count: 4 })).find((span) => span.name === 'bookHotel')?.attributes['genkit:state']).toBe('error');

    const [interrupt] = flow.interrupts;
    const generate = (resume: unknown) => runAction({ url: app.url, key: '/util/generate', input: { model: 'app/scripted', messages: flow.messages, tools: ['bookHotel'], resume } });
    const restarted = await generate({ restart: [{ toolRequest: interrupt.toolRequest, metadata: { resumed: { confirmed: true, confirmedBy: 'alice' } } }] });
    expect(restarted.result).toMatchObject({ finishReason: 'stop', message: { role: 'model', content: [{ text: 'Booked: {"city":"Porto","confirmedBy":"alice","nights":2}.' }] } });
    expect(await markerLines()).toContainEqual(expect.objectContaining({ tool: 'bookHotel', input: { city: 'Porto', nights: 2 }, pid: app.pid }));
    const resumeSpans = await spansOf({ traceId: restarted.traceId!, count: 5 });
    expect(resumeSpans.find((span) => !span.parentSpanId)?.attributes['genkit:path']).toBe('/{generate,t:util}');
    expect(resumeSpans.find((span) => span.name === 'bookHotel')?.attributes['genkit:state']).toBe('success');

    // Keys in Go map order (sorted), as the scripted model prints them back.
    const output = { city: 'Porto', confirmedBy: 'by-hand', nights: 2 };
    const bare = await generate({ respond: [{ toolResponse: { name: 'bookHotel', ref: 'book-1', output } }] });
    expect(bare.error).toMatchObject({ code: 3, message: expect.stringContaining('tool "bookHotel" output validation failed') });
    const wrapped = await generate({ respond: [{ toolResponse: { name: 'bookHotel', ref: 'book-1', output: { output } } }] });
    expect(wrapped.result).toMatchObject({ finishReason: 'stop', message: { content: [{ text: `Booked: {"output":${JSON.stringify(output)}}.` }] } });
  });

  it('streams a generate as one JSON chunk per line, then the result; a flow without a stream sends only the result', async () => {
    const streamed = await runAction({ url: app.url, key: '/util/generate', stream: true, input: { model: 'app/scripted', messages: [{ role: 'user', content: [{ text: 'Plan a trip to Faro' }] }], tools: ['getWeather', 'convertTemperature', 'writeMarker'] } });
    expect(streamed.chunks).toEqual([expect.objectContaining({ role: 'tool', index: 1 }), expect.objectContaining({ role: 'tool', index: 3 })]);
    expect(streamed.result).toMatchObject({ finishReason: 'stop' });
    const flow = await runAction({ url: app.url, key: '/flow/planTrip', stream: true, input: { city: 'Faro' } });
    expect(flow).toMatchObject({ chunks: [], result: { finishReason: 'stop' } });
  });

  it('an unknown action and an invalid input answer HTTP 200 with {error} (codes 5 and 3)', async () => {
    expect((await runAction({ url: app.url, key: '/flow/nope', input: {} })).error).toMatchObject({ code: 5, message: 'action "/flow/nope" not found' });
    expect((await runAction({ url: app.url, key: '/flow/planTrip', input: { city: 3 } })).error).toMatchObject({ code: 3, message: expect.stringContaining('city: Invalid type. Expected: string, given: integer') });
  });

  it('without GENKIT_TELEMETRY_SERVER it sends nothing until POST /api/notify names a telemetry server (attach to a running app)', async () => {
    const quiet = await startTestApp({ ...goApp(), env: { GENKIT_REFLECTION_PORT: String(await freePort()) } });
    try {
      const unsent = await runAction({ url: quiet.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
      // A trace id first: were it missing, the filter below would match every body without one (CI saw the other app's
      // batched log posts to /api/otlp match that way). By path and trace id: those log posts may still arrive here.
      expect({ error: unsent.error, traceId: unsent.traceId }).toEqual({ error: undefined, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(recorder.requests.filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string } | undefined)?.traceId === unsent.traceId)).toEqual([]);
      const notify = await fetch(`${quiet.url}/api/notify`, { method: 'POST', body: JSON.stringify({ telemetryServerUrl: recorder.url, reflectionApiSpecVersion: 1 }) });
      expect([notify.status, await notify.text()]).toEqual([200, 'OK']);
      const reply = await runAction({ url: quiet.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
      expect(await spansOf({ traceId: reply.traceId!, count: 10 })).toHaveLength(10);
    } finally {
      await quiet.stop();
    }
  });

  it('with GENKIT_ENABLE_REALTIME_TELEMETRY=true (as `genkit start` sets it) each span is posted twice: at its start with endTime 0, at its end', async () => {
    const realtime = await startTestApp({ ...goApp(), telemetryServerUrl: recorder.url, env: { GENKIT_REFLECTION_PORT: String(await freePort()), GENKIT_ENABLE_REALTIME_TELEMETRY: 'true' } });
    try {
      const reply = await runAction({ url: realtime.url, key: '/flow/planTrip', input: { city: 'Lisbon' } });
      const postsOf = () => recorder.requests.filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string }).traceId === reply.traceId);
      await recorder.waitFor({ predicate: () => postsOf().length >= 20, what: '20 posts' });
      const spanPosts = postsOf().flatMap((post) => Object.values((post.body as { spans: Record<string, { endTime?: number }> }).spans));
      expect(spanPosts).toHaveLength(20);
      expect(spanPosts.filter((span) => span.endTime === 0)).toHaveLength(10);
    } finally {
      await realtime.stop();
    }
  });

  it('exits 0 on SIGTERM within a second', async () => {
    const exit = await app.stop({ signal: 'SIGTERM' });
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(1_000);
  });
});
