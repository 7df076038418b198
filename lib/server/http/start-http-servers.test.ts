import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OTLP_MAX_BODY_BYTES } from './body-limits';
import { freePort } from '../testing/free-port';
import { startHttpServers, type RequestHandler, type RunningHttpServers } from './start-http-servers';

const LOOPBACK_PLAN = { required: ['127.0.0.1'], optional: ['::1'] };
const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

let running: RunningHttpServers | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A handler that counts its calls and answers 200 with the body it read. */
function echoHandler(): { handle: RequestHandler; calls: () => number } {
  let calls = 0;
  const handle: RequestHandler = (request, response) => {
    calls += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => response.end(`read ${Buffer.concat(chunks).byteLength}`));
  };
  return { handle, calls: () => calls };
}

async function start(options: { handle: RequestHandler; timeouts?: typeof TIMEOUTS; plan?: typeof LOOPBACK_PLAN }): Promise<number> {
  const port = await freePort();
  running = await startHttpServers({ handle: options.handle, port, plan: options.plan ?? LOOPBACK_PLAN, timeouts: options.timeouts ?? TIMEOUTS });
  return port;
}

/** Writes raw bytes on a socket and collects what comes back until the server closes it. */
function rawExchange(options: { port: number; host?: string; write: string }): { text: Promise<string>; socket: net.Socket; closedAt: Promise<number> } {
  const socket = net.connect(options.port, options.host ?? '127.0.0.1');
  socket.write(options.write);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const closedAt = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  socket.on('error', () => {});
  return { text: closedAt.then(() => text), socket, closedAt };
}

/** Resolves with the first response bytes (the server answered) without closing the socket. */
function firstAnswer(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
}

function get(options: { port: number; host: string; path?: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: options.host, port: options.port, path: options.path ?? '/' }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

describe('startHttpServers: addresses', () => {
  it('answers on 127.0.0.1 and on [::1] (an exporter whose localhost resolves to ::1 must not get ECONNREFUSED)', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    expect(running?.listening).toEqual(['127.0.0.1', '::1']);
    expect(running?.unavailable).toEqual([]);
    expect(await get({ port, host: '127.0.0.1' })).toEqual({ status: 200, text: 'read 0' });
    expect(await get({ port, host: '::1' })).toEqual({ status: 200, text: 'read 0' });
    expect(echo.calls()).toBe(2);
  });

  it('reports an optional address it cannot bind and goes on with the others', async () => {
    // 192.0.2.1 (TEST-NET-1) is on no interface of any machine: EADDRNOTAVAIL, like ::1 on a host without IPv6.
    const port = await start({ handle: echoHandler().handle, plan: { required: ['127.0.0.1'], optional: ['192.0.2.1'] } });
    expect(running?.listening).toEqual(['127.0.0.1']);
    expect(running?.unavailable).toEqual([{ address: '192.0.2.1', reason: expect.stringContaining('EADDRNOTAVAIL') }]);
    expect((await get({ port, host: '127.0.0.1' })).status).toBe(200);
  });

  it('fails when a required address cannot be bound, and leaves nothing listening', async () => {
    const port = await freePort();
    const blocker = net.createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    try {
      await expect(startHttpServers({ handle: echoHandler().handle, port, plan: { required: ['::1', '127.0.0.1'], optional: [] }, timeouts: TIMEOUTS })).rejects.toThrow(/EADDRINUSE/);
      // The ::1 server bound before the failure was closed again.
      await expect(get({ port, host: '::1' })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      blocker.close();
    }
  });
});

describe('startHttpServers: a declared Content-Length over the route limit', () => {
  it('answers 413 on /v1/traces with the OTLP error shape before any body byte is sent, and never calls Next', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    const exchange = rawExchange({
      port,
      write: `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 40000000\r\n\r\n`,
    });
    const text = await exchange.text;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain("frame-ancestors 'none'");
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: number; message: string };
    expect(body).toEqual({ code: 8, message: `The body is 40000000 bytes; the limit of /v1/traces is ${OTLP_MAX_BODY_BYTES}.` });
    expect(echo.calls()).toBe(0);
  });

  it('a client that sends its whole oversized body anyway gets the 413, never a reset (the connection drains before it closes)', async () => {
    const port = await start({ handle: echoHandler().handle });
    const big = Buffer.alloc(OTLP_MAX_BODY_BYTES + 1024 * 1024, 0x20);
    // node:http writes the whole body; the server answered after the headers and closes.
    const send = () =>
      new Promise<number>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json', 'content-length': String(big.byteLength) } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
        request.end(big);
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) statuses.push(await send());
    expect(statuses).toEqual(Array(8).fill(413));
  });

  it('answers 413 on /api routes over 1 MiB with the API error shape (a query string does not change the route)', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    const exchange = rawExchange({ port, write: `POST /api/runs?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024 + 1}\r\n\r\n` });
    const text = await exchange.text;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.error.message).toContain('1048576');
    expect(echo.calls()).toBe(0);
  });

  it('refuses an oversized body announced with Expect: 100-continue without inviting it', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    const exchange = rawExchange({ port, write: `POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n` });
    const text = await exchange.text;
    expect(text).not.toContain('100 Continue');
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(echo.calls()).toBe(0);
  });

  it('lets a body under the limit through to the handler, with 100-continue too', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    const plain = rawExchange({ port, write: `POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello` });
    expect(await plain.text).toContain('read 5');
    const continued = rawExchange({ port, write: `POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n` });
    expect(await firstAnswer(continued.socket)).toContain('100 Continue');
    continued.socket.write('hello');
    expect(await continued.text).toContain('read 5');
    expect(echo.calls()).toBe(2);
  });
});

describe('startHttpServers: timeouts', () => {
  const SHORT = { headersTimeoutMs: 400, requestTimeoutMs: 800 };

  it('closes a request whose Content-Length lies (declares 1000, sends 10 and stalls) within the request timeout', async () => {
    const port = await start({ handle: echoHandler().handle, timeouts: SHORT });
    const started = Date.now();
    const exchange = rawExchange({ port, write: `POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789` });
    const text = await exchange.text;
    const elapsed = (await exchange.closedAt) - started;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    // The timeout plus at most one check interval (a quarter of the headers timeout), with slack for a busy machine.
    expect(elapsed).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs - 50);
    expect(elapsed).toBeLessThan(SHORT.requestTimeoutMs + 1_500);
  });

  it('cuts a client that sends its headers slowly at the headers timeout', async () => {
    const port = await start({ handle: echoHandler().handle, timeouts: SHORT });
    const started = Date.now();
    const exchange = rawExchange({ port, write: `GET / HTTP/1.1\r\nHost: x\r\n` });
    const text = await exchange.text;
    const elapsed = (await exchange.closedAt) - started;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(elapsed).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs - 50);
    expect(elapsed).toBeLessThan(SHORT.requestTimeoutMs);
  });

  it('does not cut a response that streams longer than the request timeout (event streams)', async () => {
    const handle: RequestHandler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        response.write(`data: ${sent}\n\n`);
        if (sent === 12) {
          clearInterval(timer);
          response.end();
        }
      }, 200);
    };
    const port = await start({ handle, timeouts: SHORT });
    const started = Date.now();
    const { status, text } = await get({ port, host: '127.0.0.1' });
    expect(status).toBe(200);
    // 12 × 200 ms = 2.4 s: three times the request timeout, and every event arrived.
    expect(Date.now() - started).toBeGreaterThan(SHORT.requestTimeoutMs * 2);
    expect(text.match(/^data: /gm)).toHaveLength(12);
  });
});

describe('startHttpServers: close', () => {
  it('ends open streams and stops listening', async () => {
    const handle: RequestHandler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: open\n\n');
    };
    const port = await start({ handle });
    const stream = rawExchange({ port, write: `GET / HTTP/1.1\r\nHost: x\r\n\r\n` });
    expect(await firstAnswer(stream.socket)).toContain('200 OK');
    await running?.close();
    running = undefined;
    await stream.closedAt;
    await expect(get({ port, host: '127.0.0.1' })).rejects.toThrow(/ECONNREFUSED/);
  });
});

/** The security headers of every response (security-headers.ts), as they appear in a raw answer. */
function expectSecurityHeaders(answer: string, what: string): void {
  const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
  expect(head, what).toContain("content-security-policy: default-src 'self'");
  expect(head, what).toContain("frame-ancestors 'none'");
  expect(head, what).toContain('x-frame-options: deny');
  expect(head, what).toContain('x-content-type-options: nosniff');
  expect(head, what).toContain('referrer-policy: no-referrer');
}

describe('startHttpServers: request lines Next would answer itself', () => {
  it('refuses absolute-form and asterisk-form targets with 400 (Next redirected GET http://evil.example/ to that host), before the handler', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    for (const line of ['GET http://evil.example/ HTTP/1.1', `GET http://127.0.0.1:${port}/ HTTP/1.1`, 'GET * HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
      const text = await rawExchange({ port, write: `${line}\r\nHost: 127.0.0.1:${port}\r\n\r\n` }).text;
      expect(text, line).toMatch(/^HTTP\/1\.1 400 /);
      expect(text.toLowerCase(), line).not.toContain('location:');
      expectSecurityHeaders(text, line);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
      expect(body.error.code, line).toBe('INVALID_ARGUMENT');
      expect(body.error.message, line).toContain('is not a path');
    }
    expect(echo.calls()).toBe(0);
  });

  it('refuses TRACE with 405 (Next answered it with a plain-text 500)', async () => {
    const echo = echoHandler();
    const port = await start({ handle: echo.handle });
    const text = await rawExchange({ port, write: `TRACE / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n` }).text;
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(text.toLowerCase()).toContain('allow: get, head, post');
    expectSecurityHeaders(text, 'TRACE');
    expect(echo.calls()).toBe(0);
  });

  it("puts the security headers on what the handler answers by itself (Next's 308s and 500s before its proxy runs)", async () => {
    // Next answers some requests before proxy.ts sets the headers: a path with a trailing slash
    // gets a bare 308, an error a bare plain-text 500. This handler answers likewise.
    const handle: RequestHandler = (request, response) => {
      if (request.url === '/apps/') return void response.writeHead(308, { location: '/apps' }).end('/apps');
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    };
    const port = await start({ handle });
    for (const path of ['/apps/', '/boom']) {
      const text = await rawExchange({ port, write: `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n` }).text;
      expectSecurityHeaders(text, path);
    }
  });

  it('a handler that sets its own CSP (the proxy, with its nonce) replaces the default one: one policy, not two', async () => {
    const handle: RequestHandler = (_request, response) => {
      response.setHeader('content-security-policy', "script-src 'nonce-abc'");
      response.end('page');
    };
    const port = await start({ handle });
    const text = await rawExchange({ port, write: `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n` }).text;
    expect(text.toLowerCase().match(/content-security-policy:/g)).toHaveLength(1);
    expect(text).toContain("script-src 'nonce-abc'");
  });

  it("answers what Node cannot parse (400), too-large headers (431), an unmet Expect (417) and slow headers (408) with the security headers (Node's own answers had none)", async () => {
    const port = await start({ handle: echoHandler().handle, timeouts: { headersTimeoutMs: 400, requestTimeoutMs: 800 } });
    const garbage = await rawExchange({ port, write: 'NOT HTTP AT ALL\r\n\r\n' }).text;
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expectSecurityHeaders(garbage, 'garbage');
    const huge = await rawExchange({ port, write: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` }).text;
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expectSecurityHeaders(huge, 'huge headers');
    const expectation = await rawExchange({ port, write: 'GET / HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n' }).text;
    expect(expectation).toMatch(/^HTTP\/1\.1 417 /);
    expectSecurityHeaders(expectation, 'Expect: something-else');
    const slow = await rawExchange({ port, write: 'GET / HTTP/1.1\r\nHost: x\r\n' }).text;
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expectSecurityHeaders(slow, 'slow headers');
  });
});
