import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TraceStore } from '../../store/trace-store';
import { OTLP_MAX_BODY_BYTES } from './body-limits';
import { EventBus } from '../live/event-bus';
import { IngestGate } from '../ingest/ingest-gate';
import { createOtlpFastPath } from './otlp-fast-path';
import type { OtlpReceiverContext } from '../ingest/receive-otlp-export';
import { freePort } from '../testing/free-port';
import { startHttpServers, type RequestHandler, type RunningHttpServers } from './start-http-servers';

const TOKEN = 'fast-path-token';
const PLAN = { required: ['127.0.0.1'], optional: [] };
const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

/** One real SDK trace of `spans` spans as an OTLP JSON body. */
function otlpJson(spans: number): { body: string; traceId: string } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('fast-path-test');
  const root = tracer.startSpan('root');
  for (let index = 1; index < spans; index += 1) tracer.startSpan(`child-${index}`, {}, trace.setSpan(ROOT_CONTEXT, root)).end();
  root.end();
  return { body: new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())), traceId: root.spanContext().traceId };
}

let dataDir: string;
let running: RunningHttpServers | undefined;
let context: (OtlpReceiverContext & { store: TraceStore }) | undefined;
let port: number;
/** Requests that reached the handler behind the fast path (Next's, in production). */
let handed: string[];

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-fast-path-'));
  context = { store: new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') }), bus: new EventBus(), ingestGate: new IngestGate() };
  handed = [];
  const handle: RequestHandler = (request, response) => {
    handed.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(404, { 'content-type': 'text/plain' }).end('next'));
  };
  port = await freePort();
  running = await startHttpServers({ handle, port, plan: PLAN, timeouts: TIMEOUTS, direct: createOtlpFastPath({ context: () => context, guard: { port, token: TOKEN } }) });
});
afterEach(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (body: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('the OTLP fast path of the HTTP server', () => {
  it('stores an export sent without a token or Origin (an exporter) and answers {} with the security headers, without Next', async () => {
    const { body, traceId } = otlpJson(4);
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{}');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect((await context!.store.list()).map((summary) => [summary.traceId, summary.spanCount])).toEqual([[traceId, 4]]);
    expect(handed).toEqual([]);
  });

  it('refuses as the proxy does: a foreign Origin 403, a wrong token 401, a foreign Host 403 — storing nothing', async () => {
    const { body } = otlpJson(1);
    const foreignOrigin = await post(body, { origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.headers.get('connection')).toBe('close');
    expect(await foreignOrigin.json()).toEqual({ error: { code: 'PERMISSION_DENIED', message: 'Origin "http://evil.example" is not allowed: requests must come from Loopscope\'s own page.' } });
    const wrongToken = await post(body, { authorization: 'Bearer nope' });
    expect(wrongToken.status).toBe(401);
    expect(await wrongToken.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'The Loopscope token is wrong.' } });
    // A page of Loopscope itself (its Origin) needs the token too.
    expect((await post(body, { origin: `http://127.0.0.1:${port}` })).status).toBe(401);
    expect((await post(body, { origin: `http://127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    const rebinding = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.write(`POST /v1/traces HTTP/1.1\r\nHost: attacker.example:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    });
    expect(rebinding).toMatch(/^HTTP\/1\.1 403 /);
    expect((await context!.store.list()).map((summary) => summary.spanCount)).toEqual([1]);
    expect(handed).toEqual([]);
  });

  it('refuses a chunked body past the limit with 413 and closes the connection', async () => {
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > OTLP_MAX_BODY_BYTES + chunk.byteLength) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const answer = await fetch(`http://127.0.0.1:${port}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.json()).toEqual({ code: 8, message: `The body passed the limit of ${OTLP_MAX_BODY_BYTES} bytes.` });
    expect(await context!.store.list()).toEqual([]);
  });

  it('leaves other methods and paths to Next, and /v1/traces too until the app context exists', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/v1/traces`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/v1/traces/x`, { method: 'POST', body: '{}' })).status).toBe(404);
    context = undefined;
    const early = await post(otlpJson(1).body);
    expect(early.status).toBe(404);
    expect(await early.text()).toBe('next');
    expect(handed).toEqual(['GET /v1/traces', 'POST /v1/traces/x', 'POST /v1/traces']);
  });

  it('takes the path with a query string, as Next routes it', async () => {
    const answer = await post(otlpJson(2).body, {});
    expect(answer.status).toBe(200);
    const withQuery = await fetch(`http://127.0.0.1:${port}/v1/traces?from=test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: otlpJson(3).body });
    expect(withQuery.status).toBe(200);
    expect((await context!.store.list()).map((summary) => summary.spanCount).sort()).toEqual([2, 3]);
    expect(handed).toEqual([]);
  });
});
