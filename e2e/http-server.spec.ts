import http from 'node:http';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect, test } from '@playwright/test';
import { AUTH, PORT, rawExchange, rawRequest, startSecondServer, stopSecondServers } from './helpers';

interface TraceList {
  traces: { traceId: string; spanCount: number }[];
}

/** The JSON body of a raw HTTP answer. */
function bodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

test.afterEach(stopSecondServers);

test.describe('the HTTP server refuses a declared Content-Length over the limit before reading the body', () => {
  test('POST /v1/traces declaring 40,000,000 bytes, headers only: the 413 arrives without a byte of body sent', async () => {
    const answer = await rawExchange({
      text: `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/json\r\nContent-Length: 40000000\r\n\r\n`,
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toContain("frame-ancestors 'none'");
    expect(bodyOf(answer.text)).toEqual({ code: 8, message: 'The body is 40000000 bytes; the limit of /v1/traces is 33554432.' });
  });

  test('POST /api/runs declaring more than 1 MiB gets 413 with the API error shape', async () => {
    const answer = await rawExchange({
      text: `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024 + 1}\r\n\r\n`,
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(bodyOf(answer.text)).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The body is 1048577 bytes; the limit of /api/runs is 1048576.' } });
  });
});

test.describe('every response carries the security headers, and absolute-form targets are refused', () => {
  /** The headers of security-headers.ts in a raw answer; `nonce` when the proxy set its own CSP (pages, API). */
  const expectSecurityHeaders = (text: string, what: string) => {
    const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
    expect(head.match(/^content-security-policy: /gm), `${what}: one CSP`).toHaveLength(1);
    expect(head, what).toContain("frame-ancestors 'none'");
    expect(head, what).toContain("object-src 'none'");
    expect(head, what).toContain('x-frame-options: deny');
    expect(head, what).toContain('x-content-type-options: nosniff');
    expect(head, what).toContain('referrer-policy: no-referrer');
  };
  const ask = (line: string, extra = '') => rawExchange({ text: `${line}\r\nHost: 127.0.0.1:${PORT}\r\n${extra}Connection: close\r\n\r\n` });

  test('request lines Next answered itself without the headers (GET *, TRACE /, OPTIONS *, a trailing slash, a path starting //) now carry them', async () => {
    const answers: [string, RegExp][] = [
      ['GET * HTTP/1.1', /^HTTP\/1\.1 400 /],
      ['OPTIONS * HTTP/1.1', /^HTTP\/1\.1 400 /],
      ['TRACE / HTTP/1.1', /^HTTP\/1\.1 405 /],
      // Next's own 308s, answered before its proxy runs.
      ['GET /apps/ HTTP/1.1', /^HTTP\/1\.1 308 /],
      ['GET //evil.example/ HTTP/1.1', /^HTTP\/1\.1 308 /],
    ];
    for (const [line, status] of answers) {
      const { text } = await ask(line);
      expect(text, line).toMatch(status);
      expectSecurityHeaders(text, line);
      // A redirect stays on this server.
      const location = /^location: (.*)$/im.exec(text)?.[1]?.trim();
      if (location !== undefined) expect(location, line).toMatch(/^\/[^/\\]/);
    }
    // And what the proxy answers keeps its own CSP, with the nonce the page's scripts carry.
    for (const line of ['GET / HTTP/1.1', 'GET /no-such-page HTTP/1.1', 'GET /api/runner HTTP/1.1']) {
      const { text } = await ask(line);
      expectSecurityHeaders(text, line);
      expect(text, line).toMatch(/content-security-policy: [^\r]*'nonce-[^']+'/i);
    }
    // What Node itself cannot parse.
    const garbage = await rawExchange({ text: 'NOT HTTP AT ALL\r\n\r\n' });
    expect(garbage.text).toMatch(/^HTTP\/1\.1 400 /);
    expectSecurityHeaders(garbage.text, 'garbage');
  });

  test('GET http://evil.example/ HTTP/1.1 (absolute-form) gets a 400, not a redirect to that host; so does our own host in absolute-form', async () => {
    for (const line of ['GET http://evil.example/ HTTP/1.1', `GET http://127.0.0.1:${PORT}/ HTTP/1.1`, `POST http://127.0.0.1:${PORT}/v1/traces HTTP/1.1`]) {
      const { text } = await ask(line, 'Content-Length: 0\r\n');
      expect(text, line).toMatch(/^HTTP\/1\.1 400 /);
      expect(text.toLowerCase(), line).not.toContain('location:');
      expectSecurityHeaders(text, line);
      expect(bodyOf(text), line).toEqual({ error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('is not a path') } });
    }
  });
});

test('a lying Content-Length is cut at the request timeout, slow headers at the headers timeout, and an event stream outlives both', async () => {
  const timeouts = { LOOPSCOPE_HEADERS_TIMEOUT_MS: '1000', LOOPSCOPE_REQUEST_TIMEOUT_MS: '1500' };
  const server = await startSecondServer({ env: timeouts });
  // Declares 1000 bytes, sends 10, stalls (with the token: the guard lets it through to its body).
  const lying = await rawExchange({ port: server.port, text: `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"scenari` });
  expect(lying.text).toMatch(/^HTTP\/1\.1 408 /);
  expect(lying.closedAfterMs).toBeGreaterThanOrEqual(1_400);
  // The timeout plus one check interval (250 ms here), with slack for a busy machine.
  expect(lying.closedAfterMs).toBeLessThan(4_000);
  // Headers that never end.
  const slow = await rawExchange({ port: server.port, text: `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: ` });
  expect(slow.text).toMatch(/^HTTP\/1\.1 408 /);
  expect(slow.closedAfterMs).toBeGreaterThanOrEqual(900);
  expect(slow.closedAfterMs).toBeLessThan(3_500);

  // The request timeout covers receiving the request only: the event stream of a run that
  // takes 5 s (slow-tool), opened before it starts, still delivers the run's end.
  const finished = new Promise<number>((resolve, reject) => {
    const opened = Date.now();
    const stream = http.get({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: `127.0.0.1:${server.port}`, ...AUTH } }, (response) => {
      expect(response.statusCode).toBe(200);
      let buffer = '';
      let started = false;
      response.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        if (!started && buffer.includes('event: ready')) {
          started = true;
          void rawRequest({ method: 'POST', port: server.port, path: '/api/runs', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'slow-tool' }) });
        }
        if (/"scenario":"slow-tool"[^\n]*"status":"finished"|"status":"finished"[^\n]*"scenario":"slow-tool"/.test(buffer)) {
          resolve(Date.now() - opened);
          stream.destroy();
        }
      });
      response.on('error', reject);
    });
    stream.on('error', reject);
  });
  expect(await finished).toBeGreaterThan(3_000);
  await server.stop();
});

test.describe('IPv6 loopback', () => {
  test('an OpenTelemetry exporter pointed at http://[::1]:PORT/v1/traces gets its spans stored (counted)', async ({ request }) => {
    const exporter = new OTLPTraceExporter({ url: `http://[::1]:${PORT}/v1/traces` });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('e2e-ipv6');
    const root = tracer.startSpan('ipv6-root');
    const traceId = root.spanContext().traceId;
    const parent = trace.setSpan(context.active(), root);
    for (let index = 0; index < 4; index += 1) tracer.startSpan(`ipv6-child-${index}`, {}, parent).end();
    root.end();
    await provider.forceFlush();
    await provider.shutdown();
    await expect
      .poll(async () => {
        const list = (await (await request.get('/api/traces', { headers: AUTH })).json()) as TraceList;
        return list.traces.find((entry) => entry.traceId === traceId)?.spanCount;
      })
      .toBe(5);
  });

  test('the server answers on [::1] under the Host [::1]:PORT, pages and API alike', async () => {
    const host = { host: `[::1]:${PORT}` };
    const page = await rawRequest({ address: '::1', path: '/', headers: host });
    expect(page.status).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    const api = await rawRequest({ address: '::1', path: '/api/runner', headers: { ...host, ...AUTH } });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.text).runner.state).toBeTruthy();
  });
});

test('SIGTERM to the server ends it and its runner: no orphan', async () => {
  const server = await startSecondServer();
  expect(server.output()).toContain(`➜ IPv6:    http://[::1]:${server.port}`);
  let runnerPid: number | undefined;
  await expect
    .poll(async () => {
      const status = JSON.parse((await rawRequest({ port: server.port, path: '/api/runner', headers: AUTH })).text) as { runner: { state: string; pid?: number } };
      runnerPid = status.runner.state === 'ready' ? status.runner.pid : undefined;
      return runnerPid;
    })
    .toBeGreaterThan(0);
  // Only the server process, not its group: the runner must go because its parent went.
  process.kill(server.pid, 'SIGTERM');
  await server.exited;
  await expect
    .poll(() => {
      try {
        process.kill(runnerPid as number, 0);
        return 'alive';
      } catch {
        return 'gone';
      }
    })
    .toBe('gone');
  await expect(rawRequest({ port: server.port, path: '/' })).rejects.toThrow(/ECONNREFUSED/);
});

test.describe('OTLP partial success', () => {
  test('an export with one malformed span among good ones: the good ones are stored, the answer says 1 rejected and which', async ({ request }) => {
    const hex = (bytes: number) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('');
    const traceId = hex(16);
    const start = BigInt(Date.now()) * 1_000_000n;
    const spanOf = (name: string, spanId: string) => ({ traceId, spanId, name, kind: 1, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1_000_000n), attributes: [], status: { code: 1 } });
    const body = {
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'e2e' }, spans: [spanOf('good-1', hex(8)), spanOf('all-zero id', '0000000000000000'), spanOf('good-2', hex(8))] }] }],
    };
    const answer = await request.post('/v1/traces', { headers: { 'content-type': 'application/json' }, data: JSON.stringify(body) });
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 span(s) rejected, the others stored; the first: Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[1].spanId: an id of all zeros is invalid.' },
    });
    await expect
      .poll(async () => ((await (await request.get('/api/traces', { headers: AUTH })).json()) as TraceList).traces.find((entry) => entry.traceId === traceId)?.spanCount)
      .toBe(2);
    // Nothing good in it: refused whole, naming the span.
    const bad = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'e2e' }, spans: [spanOf('only bad', '0000000000000000')] }] }] };
    const refused = await request.post('/v1/traces', { headers: { 'content-type': 'application/json' }, data: JSON.stringify(bad) });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe('Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[0].spanId: an id of all zeros is invalid.');
  });
});
