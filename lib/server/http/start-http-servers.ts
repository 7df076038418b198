import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorMessage } from '../../errors';
import { declaredBodyRefusal, type EarlyResponse } from './declared-body-refusal';
import type { ListenPlan } from './listen-plan';
import { requestLineRefusal } from './request-line-refusal';
import { securityHeaders } from './security-headers';
import type { HttpTimeouts } from './server-config';

/** Next's request handler (`next({…}).getRequestHandler()`), or anything with its shape. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface RunningHttpServers {
  /** The addresses bound, in the plan's order. */
  listening: string[];
  /** Optional addresses that could not be bound, with the reason (e.g. no IPv6 loopback here). */
  unavailable: { address: string; reason: string }[];
  /** Stops accepting, ends every open connection (event streams included), resolves when all are closed. */
  close(): Promise<void>;
}

/** How long a refused upload's connection keeps draining after the answer, before it is cut. */
const LINGER_MS = 2_000;

/**
 * After an early answer that closes the connection (a 413 to a body never read), keep reading
 * and dropping what the client still sends for a moment after our FIN, then close. Closing a
 * socket that has unread data makes the kernel reset it, and a client still writing its body
 * may then lose the 413 it was already sent (seen in e2e: EPIPE instead of the answer) —
 * Apache's and nginx's "lingering close". Node closes the socket with `destroySoon()` once the
 * response is written: this socket's is replaced.
 */
function lingerOnClose(response: ServerResponse): void {
  const socket = response.socket as (NonNullable<ServerResponse['socket']> & { destroySoon?: () => void }) | null;
  if (!socket) return;
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}

/** An answer the HTTP server writes itself: an early refusal, or a direct handler's answer (whose body may be bytes). */
export type DirectAnswer = Omit<EarlyResponse, 'body'> & { body: string | Uint8Array };

/** Answers some requests itself, before Next (the OTLP receiver's fast path), or returns undefined to leave a request to Next. */
export type DirectHandler = (request: IncomingMessage) => Promise<DirectAnswer> | undefined;

/**
 * Takes some requests whose answer is a stream (the event stream), before Next: writes the
 * answer itself (the security headers are `securityHeaders()`'s) and returns true, or returns
 * false to leave the request to `direct` and Next.
 */
export type StreamHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Takes an HTTP upgrade request (the reflection door's WebSocket: lib/server/attach/reflection-door.ts)
 * and returns true, or returns false: the server then answers 404 and closes the connection.
 */
export type UpgradeHandler = (options: { request: IncomingMessage; socket: Duplex; head: Buffer }) => boolean;

function sendEarly(response: ServerResponse, early: DirectAnswer): void {
  if (early.headers.connection === 'close') lingerOnClose(response);
  response.writeHead(early.status, { ...securityHeaders(), ...early.headers, 'content-length': Buffer.byteLength(early.body) });
  response.end(early.body);
}

/**
 * The security headers go on the response before Next gets it: the responses Next writes itself,
 * before or without its proxy (proxy.ts) — the 308s of its path normalization, its plain-text
 * 500 for a method it does not take (`TRACE /`) — carry them too. The proxy replaces the CSP
 * with its own, which carries the request's nonce (`setHeader` replaces, never appends).
 */
function withSecurityHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries(securityHeaders())) response.setHeader(name, value);
}

/**
 * Node's answer to a request it could not parse (400), whose headers were too large (431) or too
 * slow (408), with the security headers — Node's own answer has none. As Node's default
 * `clientError` handling does: answer only if nothing was sent yet, then close.
 */
function answerClientError(error: NodeJS.ErrnoException & { code?: string }, socket: Duplex): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400;
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent && error.code !== 'ECONNRESET') {
    const headers = Object.entries({ ...securityHeaders(), connection: 'close', 'content-length': '0' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n`);
  }
  socket.destroy(error);
}

interface ServerOptions {
  handle: RequestHandler;
  timeouts: HttpTimeouts;
  direct?: DirectHandler;
  stream?: StreamHandler;
  upgrade?: UpgradeHandler;
}

/** The connections handed over by an upgrade: the HTTP server no longer tracks them, so closing it must end them itself. */
function takeUpgrades(options: { server: http.Server; upgrade?: UpgradeHandler; upgraded: Set<Duplex> }): void {
  // eslint-disable-next-line @typescript-eslint/max-params -- node:http's 'upgrade' event signature
  options.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    options.upgraded.add(socket);
    socket.once('close', () => options.upgraded.delete(socket));
    let status = '404 Not Found';
    try {
      if (options.upgrade?.({ request, socket, head })) return;
    } catch (error) {
      console.error('loopscope: upgrade request failed', error);
      status = '500 Internal Server Error';
    }
    socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
}

function createServer(options: ServerOptions): http.Server {
  const failed = (response: ServerResponse, error: unknown) => {
    console.error('loopscope: request failed', error);
    if (!response.headersSent) sendEarly(response, { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error; see the server log.' } }) });
    else response.destroy();
  };
  const forward = (request: IncomingMessage, response: ServerResponse) => {
    try {
      if (options.stream?.(request, response)) return;
    } catch (error) {
      return failed(response, error);
    }
    const direct = options.direct?.(request);
    const next = () => {
      withSecurityHeaders(response);
      return options.handle(request, response);
    };
    (direct ? direct.then((answer) => sendEarly(response, answer)) : Promise.resolve().then(next)).catch((error: unknown) => failed(response, error));
  };
  const refusal = (request: IncomingMessage) => declaredBodyRefusal({ method: request.method, url: request.url ?? '/', contentLength: request.headers['content-length'] });
  const { headersTimeoutMs, requestTimeoutMs } = options.timeouts;
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default), so a 10 s timeout could
      // wait 40 s; check often enough that a timeout means what it says.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
    },
    (request, response) => {
      const early = requestLineRefusal(request) ?? refusal(request);
      if (early) sendEarly(response, early);
      else forward(request, response);
    },
  );
  server.on('clientError', answerClientError);
  // An `Expect` other than 100-continue: Node's own answer is a bare 417.
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) =>
    sendEarly(response, { status: 417, headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ error: { code: 'INVALID_ARGUMENT', message: 'Loopscope meets no Expect but 100-continue.' } }) }),
  );
  // `Expect: 100-continue` (curl sends it for large bodies): refuse an oversized body
  // before the client sends it, instead of inviting it with 100 Continue.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const early = requestLineRefusal(request) ?? refusal(request);
    if (early) return sendEarly(response, early);
    response.writeContinue();
    forward(request, response);
  });
  return server;
}

function listen(server: http.Server, at: { address: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ host: at.address, port: at.port }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Loopscope's HTTP server in front of Next: one node:http server per address of the plan
 * (127.0.0.1 and [::1] by default), with header and request timeouts and the early 413 for
 * a declared Content-Length over the route's limit. Fails when a required address cannot
 * be bound (closing what was bound); reports optional ones that cannot. `stream` and `direct`
 * answer the requests they take themselves (with the security headers), before Next sees them.
 */
export async function startHttpServers(options: ServerOptions & { port: number; plan: ListenPlan }): Promise<RunningHttpServers> {
  const servers: http.Server[] = [];
  const listening: string[] = [];
  const unavailable: RunningHttpServers['unavailable'] = [];
  const upgraded = new Set<Duplex>();
  const close = async () => {
    for (const socket of upgraded) socket.destroy();
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            // Event streams never end on their own: without this, close() would wait forever.
            server.closeAllConnections();
          }),
      ),
    );
  };
  for (const address of [...options.plan.required, ...options.plan.optional]) {
    const server = createServer(options);
    takeUpgrades({ server, upgrade: options.upgrade, upgraded });
    try {
      await listen(server, { address, port: options.port });
      servers.push(server);
      listening.push(address);
    } catch (error) {
      if (options.plan.required.includes(address)) {
        await close();
        throw error;
      }
      unavailable.push({ address, reason: errorMessage(error) });
    }
  }
  return { listening, unavailable, close };
}
