import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../app-context-ports';
import { streamEvents, type EventSink } from '../live/event-stream';
import { guardDirect } from './fast-path-request';
import { EVENT_STREAM_HEADERS, liveEventSubscription } from '../live/live-event-subscription';
import { refusalBody, type GuardConfig } from './request-guard';
import { securityHeaders } from './security-headers';

/** A Node response as an event stream's sink: what it holds unread is what Node has not yet handed to the socket. */
function responseSink(response: ServerResponse): EventSink {
  return {
    queuedBytes: () => response.writableLength,
    write: (bytes) => {
      if (response.destroyed || response.writableEnded) return false;
      response.write(bytes);
      return true;
    },
    end: () => {
      if (!response.writableEnded) response.end();
    },
    // Only a stream still holding unsent bytes is cut: once drained, the kept-alive connection may carry the page's next request.
    abort: () => {
      if (!response.writableFinished) response.destroy();
    },
  };
}

/**
 * `GET /api/events` answered by Loopscope's HTTP server itself (scripts/start.js), in front of
 * Next, as `POST /api/runs` and the OTLP receiver are: through Next every frame went through a
 * web ReadableStream, Next's piping into the Node response and their promises, ≈0.2 ms of the
 * server's time per frame and subscriber here; a run publishes several (its start, the
 * runner's state twice, its trace, its end) to every open page (bench/capture-overhead.bench.ts).
 * The same stream as the route's (app/api/events: `liveEventSubscription`, the same filter,
 * snapshot, bound and drop, lib/server/live/event-stream.ts), written to the socket directly. The
 * request meets the same guard as in proxy.ts (Host, Origin, the token — here also as
 * `?token=`, which EventSource needs — or the page's session cookie with Fetch Metadata);
 * answers carry the security headers without a script nonce.
 *
 * @param options.context the app context if it exists (made by Next's instrumentation at
 *   start); until then the request goes on to Next, which makes it.
 * @returns a function that answers a `GET /api/events` and returns true, or returns false for
 *   any other request (Next answers it).
 */
export function createEventsFastPath(options: { context: () => AppContext | undefined; guard: GuardConfig }): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const url = new URL(request.url ?? '/', 'http://loopscope.invalid');
    if (url.pathname !== '/api/events') return false;
    const context = options.context();
    if (!context) return false;
    const verdict = guardDirect({ request, pathname: url.pathname, guard: options.guard, session: true, queryToken: url.searchParams.get('token') });
    if (!verdict.ok) {
      const body = JSON.stringify(refusalBody(verdict));
      response.writeHead(verdict.status, { ...securityHeaders(), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return true;
    }
    response.writeHead(200, { ...securityHeaders(), ...EVENT_STREAM_HEADERS });
    // The page's EventSource opens now, not with the first event.
    response.flushHeaders();
    // A GET's body, if any, is never read: it must not hold the connection.
    request.resume();
    const close = streamEvents(liveEventSubscription(context, url.searchParams), responseSink(response));
    response.on('close', close);
    return true;
  };
}
