import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LoopscopeError } from '../../errors';
import { TraceStore } from '../../trace/trace-store';
import type { Span } from '../../trace/span';
import { decodeOtlpRequest } from '../otlp-receiver';
import { RunnerSupervisor, type RunnerSupervisorOptions } from '../runner-supervisor';

/**
 * A real capture path without Next: an HTTP receiver using the same decoder and store as the
 * server's `/v1/traces` route, and real runner child processes (the pool) exporting to it.
 */
export interface CaptureHarness {
  supervisor: RunnerSupervisor;
  store: TraceStore;
  /** Every span that arrived, in arrival order. */
  received: Span[];
  /** Export requests that arrived. */
  requests: number;
  /** Spans the supervisor stored itself (from a dead runner, or whose export failed), in order. */
  recovered: Span[];
  close(): Promise<void>;
}

/**
 * `onStored` is told of every batch the receiver stored (the server publishes it on the bus
 * then); the other options go to the supervisor.
 */
/** A receiver on loopback with the server's decoder and a store: what arrives is stored and counted. */
export interface TestReceiver {
  endpoint: string;
  token: string;
  store: TraceStore;
  received: Span[];
  requests: number;
  close(): Promise<void>;
}

export async function startTestReceiver(options: { onStored?: (spans: Span[]) => void } = {}): Promise<TestReceiver> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-capture-'));
  const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  const token = 'test-token';
  const counts = { received: [] as Span[], requests: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        if (request.headers.authorization !== `Bearer ${token}`) throw new LoopscopeError('UNAUTHENTICATED', 'missing token');
        const spans = decodeOtlpRequest({
          contentType: request.headers['content-type'] ?? null,
          contentEncoding: (request.headers['content-encoding'] as string | undefined) ?? null,
          body: Buffer.concat(chunks),
        });
        counts.requests += 1;
        counts.received.push(...spans);
        await store.append(spans);
        options.onStored?.(spans);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        const status = LoopscopeError.isInstance(error) ? error.httpStatus : 500;
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return Object.assign(counts, {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    token,
    store,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

export async function startCaptureHarness(options: Partial<RunnerSupervisorOptions> & { onStored?: (spans: Span[]) => void } = {}): Promise<CaptureHarness> {
  const { onStored, ...supervisorOptions } = options;
  const receiver = await startTestReceiver({ onStored });
  const { store, token } = receiver;
  const harness = {
    get received() {
      return receiver.received;
    },
    get requests() {
      return receiver.requests;
    },
    recovered: [] as Span[],
  };
  const supervisor = new RunnerSupervisor({
    projectDir: process.cwd(),
    otlpEndpoint: receiver.endpoint,
    token,
    toolsDir: path.join(process.cwd(), 'tools'),
    toolTimeoutMs: 30_000,
    heartbeatTimeoutMs: 5_000,
    memoryLimitMb: 512,
    watchTools: false,
    ingestSpans: async (spans) => {
      harness.recovered.push(...spans);
      await store.append(spans);
    },
    ...supervisorOptions,
  });
  supervisor.start();
  return Object.assign(harness, {
    supervisor,
    store,
    async close() {
      await supervisor.stop();
      await receiver.close();
    },
  });
}
