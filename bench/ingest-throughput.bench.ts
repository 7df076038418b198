/**
 * Benchmark (not a test): how fast the OTLP receiver takes spans (issue 15, item 2), measured
 * side by side in one run on the same requests: 300 OTLP/HTTP JSON exports of 56 genkit-shaped
 * spans each (a trace per export), sent by 8 concurrent clients, to
 *  A. a bare Node HTTP sink that only parses the JSON, and
 *  B. a production Loopscope server (`POST /v1/traces`: decode, store, publish), and
 *  C. genkit's own telemetry server (`@genkit-ai/telemetry-server`, the Dev UI's: `POST
 *     /api/otlp`, decode, store in its `LocalFileTraceStore`, broadcast), in its own process.
 * Every round sends the same fresh bodies to all three. Prints spans/s of each and the ratios
 * (target: Loopscope ≥ 0.5× the sink and ahead of genkit's server), by round as the stores grow
 * (cost per span must not grow with the store).
 *
 * Needs a production build (`npm run build`). Run: `node --import tsx bench/ingest-throughput.bench.ts`.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startBenchServer, startGenkitTelemetryServer } from './lib/bench-server';
import { startBenchResult } from './lib/start-bench-result';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const SPANS_PER_REQUEST = 56;
const CLIENTS = 8;
const PORT = Number(process.env.BENCH_PORT ?? 4793);
const GENKIT_PORT = PORT + 1;
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

const result = startBenchResult('ingest-throughput');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-ingest-bench-'));
const genkitDir = mkdtempSync(path.join(os.tmpdir(), 'genkit-telemetry-bench-'));
const sink = await bareSink();
const children: ChildProcess[] = [];
try {
  children.push(await startBenchServer({ port: PORT, token: TOKEN, dataDir, toolsDir: path.join(process.cwd(), 'bench', 'fixtures', 'tools') }));
  children.push(await startGenkitTelemetryServer({ port: GENKIT_PORT, storeRoot: genkitDir }));
  const loopscope = `http://127.0.0.1:${PORT}/v1/traces`;
  const genkitUrl = `http://127.0.0.1:${GENKIT_PORT}/api/otlp`;
  // Warm all three up (JIT, Next's route compile) on as many exports each.
  for (const url of [sink.url, loopscope, genkitUrl]) await send(url, Array.from({ length: 30 }, exportBody));
  const rounds: { sink: number; loopscope: number; genkit: number }[] = [];
  for (let round = 0; round < 3; round += 1) {
    // The same requests for all three; the two servers that store take turns going first.
    const bodies = Array.from({ length: REQUESTS }, exportBody);
    const sinkRate = await send(sink.url, bodies);
    const [loopscopeRate, genkitRate] =
      round % 2 === 0 ? [await send(loopscope, bodies), await send(genkitUrl, bodies)] : await send(genkitUrl, bodies).then(async (rate) => [await send(loopscope, bodies), rate]);
    rounds.push({ sink: sinkRate, loopscope: loopscopeRate, genkit: genkitRate });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sinkRate = median(rounds.map((round) => round.sink));
  const loopscopeRate = median(rounds.map((round) => round.loopscope));
  const genkitRate = median(rounds.map((round) => round.genkit));
  const byRound = (key: 'sink' | 'loopscope' | 'genkit') => rounds.map((round) => Math.round(round[key])).join(' → ');
  console.log(`ingest: ${REQUESTS} OTLP/HTTP JSON exports of ${SPANS_PER_REQUEST} spans, ${CLIENTS} concurrent clients, 3 rounds alternating (same requests for all three)`);
  console.log(`  bare Node HTTP sink (parse only)     : ${byRound('sink')} spans/s (median ${Math.round(sinkRate)})`);
  console.log(`  Loopscope /v1/traces                 : ${byRound('loopscope')} spans/s (median ${Math.round(loopscopeRate)}; ${REQUESTS}, ${2 * REQUESTS}, ${3 * REQUESTS} traces stored by each round's end)`);
  console.log(`  genkit telemetry server /api/otlp    : ${byRound('genkit')} spans/s (median ${Math.round(genkitRate)})`);
  console.log(`  ratio Loopscope / sink               : ${(loopscopeRate / sinkRate).toFixed(2)}× (target ≥ 0.5×)`);
  console.log(`  ratio genkit / sink                  : ${(genkitRate / sinkRate).toFixed(2)}×`);
  console.log(`  ratio Loopscope / genkit             : ${(loopscopeRate / genkitRate).toFixed(2)}× (target > 1)`);
  console.log(`  Loopscope last round vs first        : ${(rounds.at(-1)!.loopscope / rounds[0].loopscope).toFixed(2)}× (1.0 = cost per span does not grow with the store)`);
  console.log(`  load average (1 min)                 : ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`);
  const toSink = loopscopeRate / sinkRate;
  const toGenkit = loopscopeRate / genkitRate;
  result.write({
    measures: `${REQUESTS} OTLP/HTTP JSON exports of ${SPANS_PER_REQUEST} spans, ${CLIENTS} concurrent clients, the same requests to a bare Node HTTP sink (parse only, in the bench's own process), Loopscope's /v1/traces (decode, store, publish) and genkit's own telemetry server (@genkit-ai/telemetry-server, the Dev UI's, /api/otlp, its LocalFileTraceStore), three rounds alternating as the stores grow`,
    numbers: {
      requests: REQUESTS,
      spansPerRequest: SPANS_PER_REQUEST,
      clients: CLIENTS,
      spansPerSecondByRound: rounds,
      sinkSpansPerSecond: sinkRate,
      loopscopeSpansPerSecond: loopscopeRate,
      genkitSpansPerSecond: genkitRate,
      loopscopeToSink: toSink,
      genkitToSink: genkitRate / sinkRate,
      loopscopeToGenkit: toGenkit,
      loopscopeLastToFirstRound: rounds.at(-1)!.loopscope / rounds[0].loopscope,
    },
    summary: `Loopscope / sink ${toSink.toFixed(2)}×, Loopscope / genkit ${toGenkit.toFixed(2)}× (medians of rounds: sink ${Math.round(sinkRate)}, Loopscope ${Math.round(loopscopeRate)}, genkit ${Math.round(genkitRate)} spans/s)`,
    target: 'Loopscope ≥ 0.5× the sink, and ahead of the genkit telemetry server',
    met: toSink >= 0.5 && toGenkit > 1,
  });
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(genkitDir, { recursive: true, force: true });
}
