import http from 'node:http';
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET } from '../../../app/api/runtimes/route';
import { proxy } from '../../../proxy';
import type { AttachedRuntime } from '../../contract/runtimes';
import type { AppContext } from '../app-context-ports';
import { heldAppContext } from '../app-context-holder';
import { freePort } from '../testing/free-port';
import { createRuntimesFastPath } from './runtimes-fast-path';
import { sessionCookieName, sessionCookieValue } from './session-cookie';
import { startHttpServers, type RequestHandler, type RunningHttpServers } from './start-http-servers';

const TOKEN = 'runtimes-fast-path-token';
const PLAN = { required: ['127.0.0.1'], optional: [] };
const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

/** One attached runtime as the registry describes it. */
const RUNTIME: AttachedRuntime = {
  id: '4242',
  name: 'weather-app',
  runtime: 'genkit-js',
  pid: 4242,
  genkitVersion: 'nodejs/1.42.0',
  projectDir: '/the/app',
  actions: [{ key: '/flow/weatherFlow', name: 'weatherFlow', type: 'flow' }],
  stepPlugin: false,
} as AttachedRuntime;

/** What GET /api/runtimes reads: the registry (one runtime), the app `loopscope start` runs, the AI SDK apps. */
const fakeContext = {
  attachment: {
    registry: { runtimes: () => [{ id: RUNTIME.id }], describe: async () => RUNTIME, watching: ['/the/app'] },
    app: { status: () => ({ command: ['node', 'app.mjs'], cwd: '/the/app', state: 'running', pid: 4242, restarts: 0, logs: [] }) },
  },
  aiSdkApps: { list: () => [{ name: 'trip-app', mode: { kind: 'run' }, runs: 0 }] },
} as unknown as AppContext;
// The Next route reads the process-wide context (app-context-holder.ts): the same one.
heldAppContext(() => fakeContext);

let running: RunningHttpServers | undefined;
let context: AppContext | undefined;
let port: number;
/** Requests that reached the handler behind the fast path (Next's, in production). */
let handed: string[];
const saved = { PORT: process.env.PORT, LOOPSCOPE_TOKEN: process.env.LOOPSCOPE_TOKEN };

beforeEach(async () => {
  handed = [];
  context = fakeContext;
  const handle: RequestHandler = (request, response) => {
    handed.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(404, { 'content-type': 'text/plain' }).end('next'));
  };
  port = await freePort();
  // The proxy's guard reads the server's port and token from the environment (server-config.ts).
  Object.assign(process.env, { PORT: String(port), LOOPSCOPE_TOKEN: TOKEN });
  running = await startHttpServers({ handle, port, plan: PLAN, timeouts: TIMEOUTS, direct: createRuntimesFastPath({ context: () => context, guard: { port, token: TOKEN } }) });
});
afterEach(async () => {
  await running?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

interface Answer {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

/** A request to the HTTP server with exactly these headers (Host included: fetch cannot set it). */
function send(options: { method?: string; path?: string; headers: Record<string, string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/api/runtimes', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** The same request through Next's door: proxy.ts, then (if it lets it pass) the route app/api/runtimes. */
async function throughNext(headers: Record<string, string>): Promise<Omit<Answer, 'headers'>> {
  const request = new NextRequest(`http://127.0.0.1:${port}/api/runtimes`, { headers: { host: `127.0.0.1:${port}`, ...headers } });
  const guarded = proxy(request);
  if (!guarded.headers.has('x-middleware-next')) return { status: guarded.status, body: await guarded.json() };
  const answered = await GET();
  return { status: answered.status, body: await answered.json() };
}

const withToken = { authorization: `Bearer ${TOKEN}` };
const pageCookie = () => `other=1; ${sessionCookieName(port)}=${sessionCookieValue(TOKEN)}`;

describe('the GET /api/runtimes fast path of the HTTP server', () => {
  it('answers with the token what the Next route answers — the runtimes, the app, the AI SDK apps — with the security headers, without Next', async () => {
    const answer = await send({ headers: withToken });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ runtimes: [RUNTIME], app: fakeContext.attachment.app!.status(), watching: ['/the/app'], aiSdkApps: [{ name: 'trip-app', mode: { kind: 'run' }, runs: 0 }] });
    expect(answer).toMatchObject(await throughNext(withToken));
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toContain("script-src 'none'");
    // A query changes nothing, as on the route.
    expect((await send({ path: '/api/runtimes?fresh=1', headers: withToken })).body).toEqual(answer.body);
    expect(handed).toEqual([]);
  });

  it('refuses exactly as the proxy in front of the Next route does: the same status and JSON for each', async () => {
    const cases: Record<string, Record<string, string>> = {
      'no credentials': {},
      'a wrong token': { authorization: 'Bearer wrong' },
      'a foreign Origin, with the token': { ...withToken, origin: 'http://evil.example' },
      'a foreign Host (DNS rebinding), with the token': { ...withToken, host: `evil.example:${port}` },
      'the session cookie without Fetch Metadata (a script)': { cookie: pageCookie() },
      'the session cookie from another site': { cookie: pageCookie(), 'sec-fetch-site': 'same-site' },
      'an old session cookie': { cookie: `${sessionCookieName(port)}=${sessionCookieValue('an-earlier-token')}`, 'sec-fetch-site': 'same-origin' },
    };
    for (const [what, headers] of Object.entries(cases)) {
      const answer = await send({ headers });
      expect([401, 403], what).toContain(answer.status);
      expect({ status: answer.status, body: answer.body }, what).toEqual(await throughNext(headers));
    }
    expect(handed).toEqual([]);
  });

  it('takes the page’s session cookie on a same-origin request, as the route does', async () => {
    const headers = { cookie: pageCookie(), 'sec-fetch-site': 'same-origin' };
    const answer = await send({ headers });
    expect(answer.status).toBe(200);
    expect({ status: answer.status, body: answer.body }).toEqual(await throughNext(headers));
  });

  it('leaves other methods and paths to Next, and GET /api/runtimes too until the app context exists', async () => {
    await send({ method: 'HEAD', headers: withToken });
    await send({ method: 'POST', path: '/api/runtimes/app/restart', headers: withToken });
    await send({ path: '/api/runtimes/ai-sdk-mode', headers: withToken });
    context = undefined;
    await send({ headers: withToken });
    expect(handed).toEqual(['HEAD /api/runtimes', 'POST /api/runtimes/app/restart', 'GET /api/runtimes/ai-sdk-mode', 'GET /api/runtimes']);
  });
});
