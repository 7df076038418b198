import http from 'node:http';
import { expect, test } from '@playwright/test';
import { decodeOtlpRequest } from '../lib/server/ingest/otlp-receiver';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import type { Span } from '../lib/spans/span';
import { AUTH, openHomeWithReadyRunner, startSecondServer, stopSecondServers, tinyOtlpTrace } from './helpers';

/**
 * LOOPSCOPE_FORWARD_OTLP (issue 15, item 5): a server started with it sends every span it
 * receives — an app's export and the runner's own, JSON or protobuf — on to an upstream OTLP
 * receiver, unchanged and once; counted span by span at the upstream against what the server
 * stored.
 */
test.afterEach(async () => {
  await stopSecondServers();
});

async function upstreamReceiver(): Promise<{ url: string; spans: Span[]; headers: string[]; close(): Promise<void> }> {
  const spans: Span[] = [];
  const headers: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      headers.push(String(request.headers['x-team']));
      spans.push(...decodeOtlpRequest({ contentType: request.headers['content-type'] ?? null, contentEncoding: (request.headers['content-encoding'] as string | undefined) ?? null, body: Buffer.concat(chunks) }));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, spans, headers, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('forwarding: every span the server receives — an app’s and its own runner’s — reaches the upstream OTLP receiver once, unchanged', async ({ page, request }) => {
  test.setTimeout(180_000);
  const upstream = await upstreamReceiver();
  try {
    const server = await startSecondServer({ env: { LOOPSCOPE_FORWARD_OTLP: upstream.url, LOOPSCOPE_FORWARD_OTLP_HEADERS: 'x-team=observability' } });
    expect(server.output()).toContain(`➜ Forward: every received span also goes to ${upstream.url}`);
    // An app's export.
    const app = tinyOtlpTrace('forwarded-from-an-app');
    expect((await request.post(`${server.baseUrl}/v1/traces`, { headers: { ...AUTH, 'content-type': 'application/json' }, data: app.body })).status()).toBe(200);
    await expect.poll(() => upstream.spans.filter((span) => span.spanId === app.spanId).length).toBe(1);
    // A run of the built-in runner: its spans come in through the same receiver.
    await openHomeWithReadyRunner(page, server.baseUrl);
    const posted = await request.post(`${server.baseUrl}/api/runs`, { headers: AUTH, data: { scenario: 'plain-tool-round' } });
    expect(posted.status()).toBeLessThan(300);
    const { run } = (await posted.json()) as { run: { runId: string } };
    let traceIds: string[] = [];
    await expect
      .poll(async () => {
        const answer = (await (await request.get(`${server.baseUrl}/api/runs/${run.runId}`, { headers: AUTH })).json()) as { run: { status: string; traceIds: string[] } };
        traceIds = answer.run.traceIds;
        return answer.run.status;
      }, { timeout: 60_000 })
      .toBe('finished');
    const stored = decodeOtlpJson(await (await request.get(`${server.baseUrl}/api/traces/${traceIds[0]}`, { headers: AUTH })).json());
    expect(stored.length).toBeGreaterThanOrEqual(5);
    await expect.poll(() => upstream.spans.filter((span) => span.traceId === traceIds[0]).length, { timeout: 30_000 }).toBe(stored.length);
    // Once each, the same spans, with the configured header on every export.
    const ids = upstream.spans.map((span) => `${span.traceId}:${span.spanId}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(upstream.spans.filter((span) => span.traceId === traceIds[0]).map((span) => span.name).sort()).toEqual(stored.map((span) => span.name).sort());
    expect(new Set(upstream.headers)).toEqual(new Set(['observability']));
    // The home page says how forwarding goes.
    await page.goto(server.baseUrl);
    await expect(page.getByTestId('forwarding')).toContainText(`Forwarding every received span to ${upstream.url}`);
    await expect(page.getByTestId('forwarding')).toHaveAttribute('data-error', 'false');
  } finally {
    await upstream.close();
  }
});

test('forwarding: a LOOPSCOPE_FORWARD_OTLP that is not an http(s) URL stops the start with a sentence naming it', async () => {
  const server = await startSecondServer({ env: { LOOPSCOPE_FORWARD_OTLP: 'collector:4318' } }).catch((error: Error) => error);
  expect(server).toBeInstanceOf(Error);
  expect(String(server)).toContain('LOOPSCOPE_FORWARD_OTLP must be an http:// or https:// URL');
});
