import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../app-context-ports';
import { RunRegistry, type RunSession } from '../services/run-registry';
import { createRunsFastPath } from './runs-fast-path';
import { sessionCookieName, sessionCookieValue } from './session-cookie';
import { freePort } from '../testing/free-port';
import { startHttpServers, type RequestHandler, type RunningHttpServers } from './start-http-servers';

const TOKEN = 'runs-fast-path-token';
const PLAN = { required: ['127.0.0.1'], optional: [] };
const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

let running: RunningHttpServers | undefined;
let context: AppContext | undefined;
let port: number;
/** Requests that reached the handler behind the fast path (Next's, in production). */
let handed: string[];
/** Generate commands the fake supervisor got. */
let generated: { runId: string; scenario: string }[];
let published: RunSession[];

/** Just what starting a genkit scenario run touches: the run registry and a supervisor that records its commands. */
function fakeContext(): AppContext {
  const runs = new RunRegistry((session) => published.push(session));
  return {
    runs,
    goRunner: { scenarioNamed: async () => undefined },
    supervisor: {
      whenReady: async () => true,
      status: { scenarios: [{ name: 'weather-loop' }] },
      generate: (command: { runId: string; scenario: string }) => {
        generated.push(command);
        return new Promise(() => undefined);
      },
    },
  } as unknown as AppContext;
}

beforeEach(async () => {
  handed = [];
  generated = [];
  published = [];
  context = fakeContext();
  const handle: RequestHandler = (request, response) => {
    handed.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(404, { 'content-type': 'text/plain' }).end('next'));
  };
  port = await freePort();
  running = await startHttpServers({ handle, port, plan: PLAN, timeouts: TIMEOUTS, direct: createRunsFastPath({ context: () => context, guard: { port, token: TOKEN } }) });
});
afterEach(async () => {
  await running?.close();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const withToken = { authorization: `Bearer ${TOKEN}` };

describe('the POST /api/runs fast path of the HTTP server', () => {
  it('starts the run with the token and answers 202 {run} with the security headers, without Next', async () => {
    const response = await post(JSON.stringify({ scenario: 'weather-loop' }), withToken);
    expect(response.status).toBe(202);
    const { run } = (await response.json()) as { run: RunSession };
    expect(run).toMatchObject({ scenario: 'weather-loop', status: 'running', mode: { kind: 'run' } });
    expect(generated).toEqual([expect.objectContaining({ runId: run.runId, scenario: 'weather-loop' })]);
    expect(published.map((session) => session.runId)).toContain(run.runId);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(handed).toEqual([]);
  });

  it('takes the page’s session cookie on a same-origin request, and ignores it without Fetch Metadata', async () => {
    const cookie = `other=1; ${sessionCookieName(port)}=${sessionCookieValue(TOKEN)}`;
    const page = await post(JSON.stringify({ scenario: 'weather-loop' }), { cookie, 'sec-fetch-site': 'same-origin', origin: `http://127.0.0.1:${port}` });
    expect(page.status).toBe(202);
    const script = await post(JSON.stringify({ scenario: 'weather-loop' }), { cookie });
    expect(script.status).toBe(401);
    expect(generated).toHaveLength(1);
  });

  it('refuses as the proxy does — no credentials 401, a wrong token 401, a foreign Origin 403 — and starts nothing', async () => {
    const body = JSON.stringify({ scenario: 'weather-loop' });
    const none = await post(body);
    expect(none.status).toBe(401);
    // Its body was never read: the connection is not kept for a next request.
    expect(none.headers.get('connection')).toBe('close');
    expect(await none.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'This route needs the Loopscope token (Authorization: Bearer <token>).' } });
    expect((await post(body, { authorization: 'Bearer wrong' })).status).toBe(401);
    const foreign = await post(body, { ...withToken, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('PERMISSION_DENIED');
    expect(generated).toEqual([]);
    expect(handed).toEqual([]);
  });

  it('answers a bad body as the route does: 415 for another media type, 400 naming the field, 404 for an unknown scenario', async () => {
    const text = await fetch(`http://127.0.0.1:${port}/api/runs`, { method: 'POST', headers: { ...withToken, 'content-type': 'text/plain' }, body: 'weather-loop' });
    expect(text.status).toBe(415);
    const invalid = await post(JSON.stringify({ scenario: 7 }), withToken);
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toMatch(/scenario/);
    const unknown = await post(JSON.stringify({ scenario: 'no-such-scenario' }), withToken);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect(generated).toEqual([]);
  });

  it('leaves other methods and paths to Next, and POST /api/runs too until the app context exists', async () => {
    await fetch(`http://127.0.0.1:${port}/api/runs`, { headers: withToken });
    await fetch(`http://127.0.0.1:${port}/api/runs/abc/stop`, { method: 'POST', headers: withToken });
    context = undefined;
    await post(JSON.stringify({ scenario: 'weather-loop' }), withToken);
    expect(handed).toEqual(['GET /api/runs', 'POST /api/runs/abc/stop', 'POST /api/runs']);
    expect(generated).toEqual([]);
  });
});
