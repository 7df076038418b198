/**
 * The reflection door on Loopscope's real HTTP server (startHttpServers): who may open it (issue
 * 36) — not a page that rebinds a name to 127.0.0.1 (Host), not any page at all (Origin), not a
 * local process without the secret — and what happens on it: a runtime that dials in is attached
 * once it registered and its list settled, its calls are genkit's reflection v2 JSON-RPC, and it is
 * gone when its connection closes. The runtime here is a stand-in speaking the protocol; the real
 * genkit JS, Go and Python apps dial in in attached-{,go-,python-}app.capture.test.ts.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freePort } from '../testing/free-port';
import { startHttpServers, type RunningHttpServers } from '../http/start-http-servers';
import { reflectionDoorUrl } from './app-environment';
import type { Attachment } from './attach-service';
import { createReflectionDoor } from './reflection-door';
import { RuntimeRegistry } from './runtime-registry';
import { TraceArrivals } from './trace-arrivals';

const SECRET = 'door-secret-0123456789abcdef';
const TOKEN = 'loopscope-token';

let running: RunningHttpServers | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await running?.close();
  running = undefined;
});

async function startDoor(): Promise<{ port: number; registry: RuntimeRegistry }> {
  const port = await freePort();
  const registry = new RuntimeRegistry({ projectDirs: [], telemetryServerUrl: `http://127.0.0.1:${port}/genkit`, dialedProjectDir: '/the/app', settleMs: 0 });
  const attachment: Attachment = { registry, arrivals: new TraceArrivals(), reflectionSecret: SECRET, appSecret: '' };
  const upgrade = createReflectionDoor({ attachment: () => attachment, guard: { port, token: TOKEN } });
  running = await startHttpServers({
    handle: (_request, response) => response.writeHead(404).end(),
    port,
    plan: { required: ['127.0.0.1'], optional: [] },
    timeouts: { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 },
    upgrade,
  });
  return { port, registry };
}

/** Opens a WebSocket; resolves with the open socket, or with the HTTP answer that refused it. */
function dial(options: { url: string; headers?: Record<string, string> }): Promise<{ socket: WebSocket } | { status: number; body: string }> {
  const socket = new WebSocket(options.url, { headers: options.headers ?? {} });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

/** A stand-in genkit runtime on an open socket: registers, lists two actions, runs them as genkit v2 does. */
function playRuntime(options: { socket: WebSocket; genkitVersion: string }) {
  const received: { method: string; params?: unknown }[] = [];
  const { socket } = options;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: string; method?: string; params?: { key?: string }; result?: unknown };
    if (!message.method) return;
    received.push({ method: message.method, params: message.params });
    const reply = (payload: Record<string, unknown>) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }));
    if (message.method === 'listValues') reply({ result: { values: {} } });
    if (message.method === 'listActions') reply({ result: { actions: { '/flow/planTrip': { key: '/flow/planTrip', name: 'planTrip' }, '/tool/getWeather': { key: '/tool/getWeather', name: 'getWeather' } } } });
    if (message.method === 'runAction') {
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'runActionState', params: { requestId: message.id, state: { traceId: 'a'.repeat(32) } } }));
      if (message.params?.key === '/tool/getWeather') reply({ result: { result: { city: 'Oslo' }, telemetry: { traceId: 'a'.repeat(32) } } });
      else reply({ error: { code: -32000, message: 'bad input', data: { code: 3, message: 'bad input', details: { stack: 'Error: bad input' } } } });
    }
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'register', params: { id: '4242', pid: 4242, name: 'trip-planner', genkitVersion: options.genkitVersion, reflectionApiSpecVersion: 1, envs: ['dev'] } }));
  return { received };
}

async function attached(registry: RuntimeRegistry, count: number) {
  for (let scan = 0; scan < 10 && registry.runtimes().length !== count; scan += 1) await registry.scan();
  return registry.runtimes();
}

describe('the reflection door', () => {
  it('refuses a page that rebinds a name to 127.0.0.1: its Host is its own name (403, nothing attached)', async () => {
    const { port, registry } = await startDoor();
    const answer = await dial({ url: reflectionDoorUrl({ port, secret: SECRET }), headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}` } });
    expect(answer).toMatchObject({ status: 403 });
    expect(JSON.parse((answer as { body: string }).body).error.message).toBe(`Host "evil.example:${port}" is not allowed: Loopscope answers only to 127.0.0.1:${port}, localhost:${port}, [::1]:${port}.`);
    // Even without an Origin (a rebinding page always sends one): the Host alone refuses it.
    expect(await dial({ url: reflectionDoorUrl({ port, secret: SECRET }), headers: { host: `evil.example:${port}` } })).toMatchObject({ status: 403 });
    expect(await attached(registry, 0)).toEqual([]);
  });

  it('refuses any page, Loopscope’s own included: a browser always sends Origin on a WebSocket handshake', async () => {
    const { port } = await startDoor();
    const answer = await dial({ url: reflectionDoorUrl({ port, secret: SECRET }), headers: { origin: `http://127.0.0.1:${port}` } });
    expect(answer).toMatchObject({ status: 403, body: expect.stringContaining('not for a web page') });
  });

  it('refuses a wrong or missing secret, and leaves other upgrades to a 404', async () => {
    const { port } = await startDoor();
    expect(await dial({ url: reflectionDoorUrl({ port, secret: 'guessed' }) })).toMatchObject({ status: 403, body: expect.stringContaining('secret is wrong') });
    expect(await dial({ url: `ws://127.0.0.1:${port}/genkit/reflection/` })).toMatchObject({ status: 403 });
    expect(await dial({ url: `ws://127.0.0.1:${port}/elsewhere` })).toMatchObject({ status: 404 });
  });

  it('attaches a runtime that dials in with the secret: registered, listed once settled, its runs answered in the HTTP shapes, gone when it hangs up', async () => {
    const { port, registry } = await startDoor();
    const opened = await dial({ url: reflectionDoorUrl({ port, secret: SECRET }) });
    if (!('socket' in opened)) throw new Error(`refused: ${opened.status} ${opened.body}`);
    const registerReply = new Promise((resolve) => opened.socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    const runtime = playRuntime({ socket: opened.socket, genkitVersion: 'nodejs/1.42.0' });
    expect(await registerReply).toEqual({ jsonrpc: '2.0', id: '1', result: { telemetryServerUrl: `http://127.0.0.1:${port}/genkit` } });
    const [known] = await attached(registry, 1);
    expect(known).toMatchObject({ id: '4242', name: 'trip-planner', runtime: 'genkit-js', pid: 4242, projectDir: '/the/app' });
    const described = await registry.describe(known);
    expect(described.actions.map((action) => action.key)).toEqual(['/flow/planTrip', '/tool/getWeather']);
    expect(described.reflectionWarning).toBeUndefined();
    expect(described.stepPlugin).toBe(false);
    // First sight: told where to send spans, as a runtime found by its file is (`configure` is v2's notify).
    expect(runtime.received[0]).toEqual({ method: 'configure', params: { telemetryServerUrl: `http://127.0.0.1:${port}/genkit` } });

    expect(await known.reflection.runAction({ key: '/tool/getWeather', input: { city: 'Oslo' } })).toEqual({ body: { result: { city: 'Oslo' }, telemetry: { traceId: 'a'.repeat(32) } }, headerTraceId: 'a'.repeat(32) });
    // A failed action is genkit's status, as the HTTP API's body has it.
    expect(await known.reflection.runAction({ key: '/flow/planTrip', input: {} })).toEqual({ body: { error: { code: 3, message: 'bad input', details: { stack: 'Error: bad input' } } }, headerTraceId: 'a'.repeat(32) });
    expect(runtime.received.filter((call) => call.method === 'runAction').map((call) => call.params)).toEqual([
      { key: '/tool/getWeather', input: { city: 'Oslo' } },
      { key: '/flow/planTrip', input: {} },
    ]);

    const pendingRun = known.reflection.runAction({ key: '/tool/never', input: {} });
    opened.socket.close();
    await expect(pendingRun).rejects.toThrow(/reflection connection closed before it answered/);
    expect(await attached(registry, 0)).toEqual([]);
  });

  it('closes on a runtime it does not know (its genkitVersion), attaching nothing', async () => {
    const { port, registry } = await startDoor();
    const opened = await dial({ url: reflectionDoorUrl({ port, secret: SECRET }) });
    if (!('socket' in opened)) throw new Error('refused');
    const closed = new Promise<number>((resolve) => opened.socket.once('close', (code) => resolve(code)));
    playRuntime({ socket: opened.socket, genkitVersion: 'rust/0.1.0' });
    await registry.scan();
    expect(await closed).toBe(1001);
    expect(await attached(registry, 0)).toEqual([]);
  });
});
