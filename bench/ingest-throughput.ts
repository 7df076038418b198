/**
 * Benchmark (not a test): how fast the OTLP receiver takes spans (issue 15, item 2), measured
 * side by side in one run on the same requests: 300 OTLP/HTTP JSON exports of 56 genkit-shaped
 * spans each (a trace per export), sent by 8 concurrent clients, to
 *  A. a bare Node HTTP sink that only parses the JSON, and
 *  B. a production Loopscope server (`POST /v1/traces`: decode, store, publish).
 * Prints spans/s for both and the ratio (target ≥ 0.5× the sink), then Loopscope again with
 * the store already holding those traces (cost per span must not grow with the store).
 *
 * Needs a production build (`npm run build`). Run: `node --import tsx bench/ingest-throughput.ts`.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startBenchServer } from './bench-server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const SPANS_PER_REQUEST = 56;
const CLIENTS = 8;
const PORT = Number(process.env.BENCH_PORT ?? 4793);
const TOKEN = 'bench-token';

const hex = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** One export: a generate with its model and tool spans, attributes as genkit writes them. */
function exportBody(): string {
  const traceId = hex(32);
  const root = hex(16);
  const start = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: SPANS_PER_REQUEST }, (_, index) => ({
    traceId,
    spanId: index === 0 ? root : hex(16),
    ...(index === 0 ? {} : { parentSpanId: root }),
    name: index === 0 ? 'generate' : index % 2 ? 'scripted/bench' : 'getWeather',
    kind: 1,
    startTimeUnixNano: String(start + BigInt(index) * 1000n),
    endTimeUnixNano: String(start + BigInt(index) * 1000n + 500n),
    attributes: [
      { key: 'genkit:name', value: { stringValue: index === 0 ? 'generate' : 'getWeather' } },
      { key: 'genkit:type', value: { stringValue: index === 0 ? 'util' : 'action' } },
      { key: 'genkit:state', value: { stringValue: 'success' } },
      { key: 'genkit:input', value: { stringValue: JSON.stringify({ city: 'Lisbon', messages: [{ role: 'user', content: [{ text: 'x'.repeat(400) }] }] }) } },
      { key: 'genkit:output', value: { stringValue: JSON.stringify({ temperatureC: 24, conditions: 'sunny' }) } },
    ],
    status: { code: 1 },
  }));
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] }, scopeSpans: [{ scope: { name: 'genkit-tracer' }, spans }] }] });
}

async function send(url: string, bodies: string[]): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
        await answer.arrayBuffer();
      }
    }),
  );
  return (bodies.length * SPANS_PER_REQUEST) / ((performance.now() - start) / 1000);
}

async function bareSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-ingest-bench-'));
const sink = await bareSink();
const server = await startBenchServer({ port: PORT, token: TOKEN, dataDir, toolsDir: path.join(process.cwd(), 'bench', 'fixtures', 'tools') });
try {
  const loopscope = `http://127.0.0.1:${PORT}/v1/traces`;
  // Warm both up (JIT, Next's route compile).
  await send(sink.url, [exportBody(), exportBody()]);
  await send(loopscope, [exportBody(), exportBody()]);
  const rounds: { sink: number; loopscope: number }[] = [];
  for (let round = 0; round < 3; round += 1) {
    const bodies = Array.from({ length: REQUESTS }, exportBody);
    const sinkRate = await send(sink.url, bodies);
    const loopscopeRate = await send(loopscope, bodies.map(() => exportBody()));
    rounds.push({ sink: sinkRate, loopscope: loopscopeRate });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sinkRate = median(rounds.map((round) => round.sink));
  const first = rounds[0].loopscope;
  const last = rounds.at(-1)!.loopscope;
  console.log(`ingest: ${REQUESTS} OTLP/HTTP JSON exports of ${SPANS_PER_REQUEST} spans, ${CLIENTS} concurrent clients, 3 rounds alternating`);
  console.log(`  bare Node HTTP sink (parse only)     : ${Math.round(sinkRate)} spans/s (median)`);
  console.log(`  Loopscope /v1/traces, by round       : ${rounds.map((round) => Math.round(round.loopscope)).join(' → ')} spans/s (${REQUESTS}, ${2 * REQUESTS}, ${3 * REQUESTS} traces stored before each round's end)`);
  console.log(`  ratio Loopscope / sink               : ${(median(rounds.map((round) => round.loopscope)) / sinkRate).toFixed(2)}× (target ≥ 0.5×)`);
  console.log(`  last round vs first (store growth)   : ${(last / first).toFixed(2)}× (1.0 = cost per span does not grow with the store)`);
  console.log(`  load average (1 min)                 : ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`);
} finally {
  server.kill('SIGTERM');
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
}
