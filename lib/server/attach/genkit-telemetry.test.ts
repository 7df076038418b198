import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { genkit, z } from 'genkit';
import { flushTracing, setTelemetryServerUrl } from 'genkit/tracing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceStore } from '../../store/trace-store';
import { OTLP_MAX_BODY_BYTES } from '../http/body-limits';
import { EventBus } from '../live/event-bus';
import { IngestGate } from '../ingest/ingest-gate';
import { createOtlpFastPath } from '../http/otlp-fast-path';
import { startHttpServers, type RunningHttpServers } from '../http/start-http-servers';
import { freePort } from '../testing/free-port';

/**
 * genkit's telemetry door behind Loopscope's real HTTP server (start-http-servers.ts, with the
 * early 413 for a declared Content-Length), fed by genkit's own exporter: a genkit JS app with
 * GENKIT_TELEMETRY_SERVER set exports every ended span through its `TraceServerExporter`, one
 * POST of TraceData with a Content-Length, and never reads the answer — a refused span is gone.
 */
let dataDir: string;
let store: TraceStore;
let running: RunningHttpServers;
let port: number;
/** Requests that went past the fast path (to Next, in production). */
const handed: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-genkit-door-'));
  store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  const context = { store, bus: new EventBus(), ingestGate: new IngestGate() };
  port = await freePort();
  running = await startHttpServers({
    handle: (request, response) => {
      handed.push(`${request.method} ${request.url}`);
      request.resume();
      request.on('end', () => response.writeHead(404).end());
    },
    port,
    plan: { required: ['127.0.0.1'], optional: [] },
    timeouts: { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 },
    direct: createOtlpFastPath({ context: () => context, guard: { port, token: 'door-token' } }),
  });
});
afterAll(async () => {
  await running.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("genkit's telemetry door takes what the OTLP door takes", () => {
  it('stores the span of a genkit tool run with a 1.5 MB input, exported by genkit itself', async () => {
    setTelemetryServerUrl(`http://127.0.0.1:${port}/genkit`);
    const ai = genkit({});
    const bigInput = ai.defineTool({ name: 'bigInput', description: 'takes a long text', inputSchema: z.object({ text: z.string() }), outputSchema: z.number() }, async ({ text }) => text.length);
    const text = 'x'.repeat(1_500_000);
    // genkit's exporter drops the answer: the statuses are read beside it, from the same fetch calls.
    const statuses: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const answer = await realFetch(...args);
      if (String(args[0]).endsWith('/genkit/api/traces')) statuses.push(answer.status);
      return answer;
    };
    try {
      expect(await bigInput({ text })).toBe(1_500_000);
      await flushTracing();
      await expect.poll(() => statuses.length).toBeGreaterThan(0);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(statuses).toEqual([200]);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ name: 'bigInput', spanCount: 1 });
    const [span] = (await store.get(summary.traceId)) ?? [];
    expect(JSON.parse(String(span.attributes['genkit:input']))).toEqual({ text });
    expect(handed).toEqual([]);
  });

  it('refuses a declared Content-Length over 32 MiB on every genkit door, as on /v1/traces, before reading the body', async () => {
    for (const door of ['/genkit/api/traces', '/api/traces', '/genkit/api/otlp', '/api/otlp']) {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.write(`POST ${door} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${OTLP_MAX_BODY_BYTES + 1}\r\n\r\n`);
      });
      expect(answer, door).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), door).toEqual({ code: 8, message: `The body is ${OTLP_MAX_BODY_BYTES + 1} bytes; the limit of ${door} is ${OTLP_MAX_BODY_BYTES}.` });
    }
    expect(handed).toEqual([]);
  });
});
