import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeOtlpJson } from '../../spans/otlp-json';
import type { Span } from '../../spans/span';
import { startLoopbackReceiver, type LoopbackReceiver } from './loopback-receiver';
import { OtlpForwarder, parseOtlpHeaders } from './otlp-forwarder';
import { readForwarding } from '../http/server-config';

/**
 * LOOPSCOPE_FORWARD_OTLP: every accepted export sent on, unchanged, to a second OTLP receiver on
 * loopback (the server's decoder and a store of its own), counted span by span on arrival.
 */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

let next = 0;
/** One OTLP/HTTP JSON export of `count` spans in a trace of its own. */
function exportOf(count: number): { body: Uint8Array; spans: Span[] } {
  next += 1;
  const traceId = next.toString(16).padStart(32, '0');
  const spans: Span[] = Array.from({ length: count }, (_, index) => ({
    traceId,
    spanId: (next * 1000 + index + 1).toString(16).padStart(16, '0'),
    name: `span-${index}`,
    kind: 1,
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000100000000',
    attributes: {},
    resource: { 'service.name': 'forward-test' },
    scope: { name: 'forward-test' },
    events: [],
    links: [],
    status: { code: 0 },
  }));
  return { body: Buffer.from(JSON.stringify(encodeOtlpJson(spans))), spans };
}

async function upstream(): Promise<LoopbackReceiver> {
  const receiver = await startLoopbackReceiver();
  opened.push(receiver);
  return receiver;
}

const spanIds = (receiver: LoopbackReceiver) => receiver.received.map((span) => span.spanId);

describe('forwarding every received export upstream', () => {
  it('sends each export unchanged, once and in order — JSON and gzip alike — with the configured headers', async () => {
    const target = await upstream();
    const forwarder = new OtlpForwarder({ url: target.endpoint, headers: { authorization: `Bearer ${target.token}` } });
    const sent: Span[] = [];
    for (let index = 0; index < 20; index += 1) {
      const { body, spans } = exportOf(5);
      const gzip = index % 2 === 1;
      forwarder.forward({ body: gzip ? gzipSync(body) : body, contentType: 'application/json', contentEncoding: gzip ? 'gzip' : undefined, spans: spans.length });
      sent.push(...spans);
    }
    await forwarder.drained();
    expect(target.requests).toBe(20);
    expect(spanIds(target)).toEqual(sent.map((span) => span.spanId));
    expect(forwarder.status()).toMatchObject({ queued: 0, queuedBytes: 0, sentExports: 20, sentSpans: 100, droppedExports: 0, droppedSpans: 0 });
  });

  it('keeps what arrives while upstream is down and delivers all of it, exactly once, when it comes back', async () => {
    // A port with nothing listening: take a free one, then free it.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const logs: string[] = [];
    const forwarder = new OtlpForwarder({ url: `http://127.0.0.1:${port}/v1/traces`, minBackoffMs: 20, maxBackoffMs: 100, log: (message) => logs.push(message) });
    const sent: Span[] = [];
    for (let index = 0; index < 10; index += 1) {
      const { body, spans } = exportOf(3);
      forwarder.forward({ body, contentType: 'application/json', spans: spans.length });
      sent.push(...spans);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(forwarder.status()).toMatchObject({ queued: 10, sentSpans: 0, lastError: expect.stringMatching(/upstream cannot be reached/) });
    // Upstream comes up on that port: a receiver of our own, counting.
    const received: string[] = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { spanId: string }[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) for (const span of scope.spans) received.push(span.spanId);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    await forwarder.drained();
    expect(received).toEqual(sent.map((span) => span.spanId));
    expect(forwarder.status()).toMatchObject({ queued: 0, sentExports: 10, sentSpans: 30, droppedSpans: 0 });
    expect(forwarder.status().lastError).toBeUndefined();
    // Told once that it is down (not once per retry), and once that it is back.
    expect(logs.filter((line) => /cannot be reached/.test(line))).toHaveLength(1);
    expect(logs).toContain('upstream answers again');
  });

  it('429 and 503 are retried (Retry-After honoured); a 400 is final: that export is dropped and counted, the next ones go on', async () => {
    const answers = [429, 503, 200, 400, 200];
    const seen: number[] = [];
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const status = answers.shift() ?? 200;
        seen.push(status);
        response.writeHead(status, status === 429 ? { 'retry-after': '0' } : {}).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const forwarder = new OtlpForwarder({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, minBackoffMs: 10, log: () => undefined });
    for (let index = 0; index < 3; index += 1) forwarder.forward({ body: exportOf(2).body, contentType: 'application/json', spans: 2 });
    await forwarder.drained();
    expect(seen).toEqual([429, 503, 200, 400, 200]);
    expect(forwarder.status()).toMatchObject({ sentExports: 2, sentSpans: 4, droppedExports: 1, droppedSpans: 2 });
    expect(forwarder.status().lastError).toBeUndefined();
  });

  it('the buffer is bounded: while upstream is down the oldest waiting exports are dropped and counted, never the memory', async () => {
    const forwarder = new OtlpForwarder({ url: 'http://127.0.0.1:9/v1/traces', maxBufferBytes: 10_000, minBackoffMs: 1_000, log: () => undefined });
    let bytes = 0;
    for (let index = 0; index < 50; index += 1) {
      const { body } = exportOf(4);
      bytes += body.byteLength;
      forwarder.forward({ body, contentType: 'application/json', spans: 4 });
    }
    const status = forwarder.status();
    expect(bytes).toBeGreaterThan(10_000);
    expect(status.queuedBytes).toBeLessThanOrEqual(10_000);
    expect(status.droppedExports).toBeGreaterThan(0);
    expect(status.droppedSpans).toBe(status.droppedExports * 4);
    expect(status.queued + status.droppedExports).toBe(50);
    forwarder.stop();
  });
});

describe('LOOPSCOPE_FORWARD_OTLP', () => {
  it('takes an http(s) URL and OTEL-style headers; refuses anything else, and this server itself, naming why', () => {
    expect(readForwarding({}, 4747)).toBeUndefined();
    expect(readForwarding({ LOOPSCOPE_FORWARD_OTLP: 'http://127.0.0.1:4318/v1/traces', LOOPSCOPE_FORWARD_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-team=obs' }, 4747)).toEqual({
      url: 'http://127.0.0.1:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'obs' },
    });
    expect(() => readForwarding({ LOOPSCOPE_FORWARD_OTLP: 'collector:4318' }, 4747)).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
    expect(() => readForwarding({ LOOPSCOPE_FORWARD_OTLP: 'not a url' }, 4747)).toThrow(/is not a URL/);
    expect(() => readForwarding({ LOOPSCOPE_FORWARD_OTLP: 'http://localhost:4747/v1/traces' }, 4747)).toThrow(/points at this server \(port 4747\)/);
    expect(parseOtlpHeaders('a=1,broken,=x')).toEqual({ a: '1' });
  });
});
