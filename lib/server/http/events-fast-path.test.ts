import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../app-context-ports';
import { EventBus } from '../live/event-bus';
import { createEventsFastPath } from './events-fast-path';
import { RunRegistry } from '../services/run-registry';
import { sessionCookieName, sessionCookieValue } from './session-cookie';
import { freePort } from '../testing/free-port';
import { startHttpServers, type RequestHandler, type RunningHttpServers } from './start-http-servers';

const TOKEN = 'events-fast-path-token';
const PLAN = { required: ['127.0.0.1'], optional: [] };
const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

let running: RunningHttpServers | undefined;
let context: AppContext | undefined;
let bus: EventBus;
let port: number;
/** Requests that reached the handler behind the fast path (Next's, in production). */
let handed: string[];
/** Runs watched by a page now (a watcher keeps a run's pauses alive). */
let watching: string[];

/** What an event stream touches: the bus, the run registry (its filter and snapshot), the watchers, the live graphs. */
function fakeContext(): AppContext {
  return {
    bus,
    runs: new RunRegistry(() => undefined),
    watchers: {
      watch: (runId: string) => {
        watching.push(runId);
        return () => watching.splice(watching.indexOf(runId), 1);
      },
    },
    liveGraphs: { current: async () => undefined },
  } as unknown as AppContext;
}

beforeEach(async () => {
  handed = [];
  watching = [];
  bus = new EventBus();
  context = fakeContext();
  const handle: RequestHandler = (request, response) => {
    handed.push(`${request.method} ${request.url}`);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('next');
  };
  port = await freePort();
  running = await startHttpServers({ handle, port, plan: PLAN, timeouts: TIMEOUTS, stream: createEventsFastPath({ context: () => context, guard: { port, token: TOKEN } }) });
});
afterEach(async () => {
  await running?.close();
});

/** Opens the stream as EventSource does; resolves with the answer's head, then collects its text. */
function open(path: string, headers: Record<string, string> = {}) {
  let text = '';
  let request!: http.ClientRequest;
  let markEnded = () => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', markEnded);
      resolve(response);
    });
    request.on('error', reject);
  });
  return { answered, ended, text: () => text, close: () => request.destroy() };
}

const until = async (condition: () => boolean) => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('the event stream answered by the HTTP server', () => {
  it('streams with ?token=: the security headers, ready, then the events its filter takes; a page that leaves is unsubscribed', async () => {
    const stream = open(`/api/events?token=${TOKEN}&runId=run-1`);
    const response = await stream.answered;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-transform');
    expect(response.headers['x-frame-options']).toBe('DENY');
    await until(() => stream.text().includes('event: ready'));
    expect(watching).toEqual(['run-1']);
    bus.publish({ type: 'traces-changed', traceIds: ['t-1'] });
    // Another run's graph is not this page's.
    bus.publish({ type: 'graph', runId: 'run-2' } as never);
    bus.publish({ type: 'traces-changed', traceIds: ['t-2'] });
    await until(() => stream.text().includes('"t-2"'));
    expect([...stream.text().matchAll(/^event: (\S+)$/gm)].map((match) => match[1])).toEqual(['ready', 'traces-changed', 'traces-changed']);
    expect(bus.listenerCount).toBe(1);
    stream.close();
    await until(() => bus.listenerCount === 0);
    expect(watching).toEqual([]);
    expect(handed).toEqual([]);
  });

  it('takes the page’s session cookie on a same-origin request and refuses as the proxy does: no credentials 401, a wrong token 401, a foreign Origin 403', async () => {
    const cookie = `${sessionCookieName(port)}=${sessionCookieValue(TOKEN)}`;
    const page = open('/api/events', { cookie, 'sec-fetch-site': 'same-origin' });
    expect((await page.answered).statusCode).toBe(200);
    page.close();
    const refused = async (headers: Record<string, string>, path = '/api/events') => {
      const stream = open(path, headers);
      const response = await stream.answered;
      await stream.ended;
      return { status: response.statusCode, body: JSON.parse(stream.text()) as { error: { code: string } } };
    };
    expect(await refused({})).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'This route needs the Loopscope token (Authorization: Bearer <token>).' } } });
    expect((await refused({ cookie })).status).toBe(401);
    expect((await refused({}, '/api/events?token=wrong')).status).toBe(401);
    expect((await refused({ origin: 'http://evil.example' }, `/api/events?token=${TOKEN}`)).body.error.code).toBe('PERMISSION_DENIED');
    await until(() => bus.listenerCount === 0);
  });

  it('leaves other paths and methods to Next, and the stream too until the app context exists', async () => {
    await fetch(`http://127.0.0.1:${port}/api/eventsx?token=${TOKEN}`);
    await fetch(`http://127.0.0.1:${port}/api/events?token=${TOKEN}`, { method: 'POST' });
    context = undefined;
    await fetch(`http://127.0.0.1:${port}/api/events?token=${TOKEN}`);
    expect(handed).toEqual([`GET /api/eventsx?token=${TOKEN}`, `POST /api/events?token=${TOKEN}`, `GET /api/events?token=${TOKEN}`]);
    expect(bus.listenerCount).toBe(0);
  });
});
