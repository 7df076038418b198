import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeGenkitTraceData } from '../../../spans/genkit-trace-data';
import type { Span } from '../../../spans/span';

/**
 * A stand-in for genkit's telemetry server (what `GENKIT_TELEMETRY_SERVER` points at) on
 * loopback: it answers every POST with 200 and keeps each request as it arrived — path,
 * content type and body — so a test can count what a genkit runtime sends and where.
 * Genkit `TraceData` posted to `/api/traces` is also decoded with Loopscope's own reader.
 */
export interface RecordedTelemetryRequest {
  method: string;
  path: string;
  contentType?: string;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
  receivedAt: number;
}

export interface TelemetryRecorder {
  /** The base URL to give the app as GENKIT_TELEMETRY_SERVER (no trailing slash). */
  url: string;
  requests: RecordedTelemetryRequest[];
  /** Every span of the `/api/traces` posts, one per span id (a later post of the same span wins: realtime export posts a span at its start and its end). */
  spans(): Span[];
  /** Resolves once `predicate` holds for the recorded requests; rejects after `timeoutMs`. */
  waitFor(options: { predicate: (recorder: TelemetryRecorder) => boolean; timeoutMs?: number; what?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startTelemetryRecorder(): Promise<TelemetryRecorder> {
  const requests: RecordedTelemetryRequest[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: keep the text as it arrived.
      }
      requests.push({ method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'], body, receivedAt: Date.now() });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const recorder: TelemetryRecorder = {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans() {
      const byId = new Map<string, Span>();
      for (const request of requests) {
        if (request.path !== '/api/traces') continue;
        for (const span of decodeGenkitTraceData(request.body)) byId.set(`${span.traceId}/${span.spanId}`, span);
      }
      return [...byId.values()];
    },
    waitFor({ predicate, timeoutMs = 10_000, what = 'the telemetry the test waits for' }) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(recorder)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what} did not arrive within ${timeoutMs} ms (${requests.length} request(s) recorded)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return recorder;
}
