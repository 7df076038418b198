import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpJson } from '../../spans/otlp-json';
import { parseJsonLimited } from '../../spans/parse-json-limited';
import { TraceStore } from '../../store/trace-store';

/**
 * A stand-in for a running Loopscope server in tests: one long-lived TraceStore (its index
 * read once and kept in memory, as the server's is) behind `POST /v1/traces`.
 */
export async function startFakeReceiver(options: { dataDir: string; savedDir: string }) {
  const store = new TraceStore(options);
  await store.list(); // a running server has read its index before anyone else writes
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const ok = request.method === 'POST' && request.url === '/v1/traces';
      if (ok) await store.append(decodeOtlpJson(parseJsonLimited(Buffer.concat(chunks), { what: 'The export body' })));
      response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { store, port, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
