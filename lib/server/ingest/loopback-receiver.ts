import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LoopscopeError } from '../../errors';
import { TraceStore } from '../../store/trace-store';
import type { Span } from '../../spans/span';
import { decodeOtlpRequest } from './otlp-receiver';

/**
 * An OTLP/HTTP receiver on loopback with the server's decoder and a store of its own (a
 * temporary folder): what arrives is stored and counted. For a process that runs an exporter
 * outside the server — the CLI's genkit Go resumes, tests — and closes it when done.
 */
export interface LoopbackReceiver {
  endpoint: string;
  token: string;
  store: TraceStore;
  received: Span[];
  requests: number;
  close(): Promise<void>;
}

export async function startLoopbackReceiver(options: { onStored?: (spans: Span[]) => void } = {}): Promise<LoopbackReceiver> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-capture-'));
  const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  const token = randomBytes(16).toString('hex');
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

/** Tests' name for it. */
export type TestReceiver = LoopbackReceiver;
export const startTestReceiver = startLoopbackReceiver;
