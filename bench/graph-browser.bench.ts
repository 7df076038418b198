/**
 * Benchmark (not a test): time-to-graph in Chromium for a long loop against a short one.
 * Target: 500 rounds ≤ 3× the time of 20 rounds.
 *
 * Both traces are recorded from real genkit runs (in this process, spans to an in-memory
 * exporter) of the same scripted loop, written as saved trace files, and opened in the
 * production UI (`/saved/<file>`), alternating, several times each. Time-to-graph is
 * measured in the page: from navigation start until the graph's nodes are drawn.
 *
 * Needs a production build (`npm run build`). Run: `node --import tsx bench/graph-browser.bench.ts`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { chromium } from '@playwright/test';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { spawnReady } from './lib/bench-server';
import { decodeOtlpJson, encodeOtlpJson } from '../lib/spans/otlp-json';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const PORT = Number(process.env.BENCH_PORT ?? 4792);
const TOKEN = 'bench-token';
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const SIZES = [20, 500];

disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const { genkit, z } = await import('genkit/beta');

/** Records a real genkit loop of `rounds` tool rounds and returns it as OTLP JSON text. */
async function recordLoop(rounds: number): Promise<string> {
  const ai = genkit({});
  ai.defineTool({ name: 'step', description: 'Next step.', inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ next: z.number() }) }, async ({ n }) => ({
    next: n + 1,
  }));
  ai.defineModel({ name: `bench/loop-${rounds}`, supports: { tools: true, multiturn: true } }, async (request) => {
    const turn = request.messages.filter((message) => message.role === 'model').length;
    return turn < rounds
      ? { message: { role: 'model', content: [{ toolRequest: { name: 'step', ref: `s${turn}`, input: { n: turn } } }] }, finishReason: 'stop' }
      : { message: { role: 'model', content: [{ text: `Done after ${rounds} rounds.` }] }, finishReason: 'stop' };
  });
  exporter.reset();
  await ai.generate({ model: `bench/loop-${rounds}`, prompt: 'Count.', tools: ['step'], maxTurns: rounds + 5 });
  const body = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
  return JSON.stringify(encodeOtlpJson(decodeOtlpJson(body)));
}

async function startServer(dataDir: string, savedDir: string) {
  return spawnReady({ name: 'server', args: ['scripts/start.js'], env: { ...process.env, PORT: String(PORT), LOOPSCOPE_TOKEN: TOKEN, LOOPSCOPE_DATA_DIR: dataDir, LOOPSCOPE_TRACES_DIR: savedDir }, ready: 'Loopscope is running' });
}

if (!existsSync(path.join('.next', 'BUILD_ID'))) {
  console.error('bench: no production build; run `npm run build` first.');
  process.exit(2);
}
const result = startBenchResult('graph-browser');
const directory = mkdtempSync(path.join(os.tmpdir(), 'loopscope-graph-browser-'));
const savedDir = path.join(directory, 'saved');
mkdirSync(savedDir);
const sizes: Record<number, number> = {};
for (const rounds of SIZES) {
  const text = await recordLoop(rounds);
  sizes[rounds] = text.length;
  writeFileSync(path.join(savedDir, `loop-${rounds}.json`), text);
}
const server = await startServer(path.join(directory, 'data'), savedDir);
const browser = await chromium.launch({
  executablePath: process.env.LOOPSCOPE_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const times: Record<number, number[]> = { 20: [], 500: [] };
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // Sign in as a user does: the banner's #token= URL, which the page trades for its session cookie.
  const signedIn = page.waitForResponse((response) => response.url().endsWith('/api/session') && response.request().method() === 'POST');
  await page.goto(`http://127.0.0.1:${PORT}/#token=${TOKEN}`);
  if ((await signedIn).status() !== 204) throw new Error('bench: the token exchange was refused');
  // The first open of a file version computes its graph on the server and caches it (the
  // home page's listing starts that in the background); it is reported, not counted.
  const firstOpen: Record<number, number> = {};
  for (const rounds of SIZES) {
    await page.goto(`http://127.0.0.1:${PORT}/saved/loop-${rounds}.json`);
    await page.locator('[data-testid=graph-node][data-kind=final-answer]').waitFor({ state: 'attached', timeout: 120_000 });
    firstOpen[rounds] = await page.evaluate(() => performance.now());
  }
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const rounds of SIZES) {
      await page.goto(`http://127.0.0.1:${PORT}/saved/loop-${rounds}.json`);
      // Drawn: the final answer node of the loop is on the page.
      await page.locator('[data-testid=graph-node][data-kind=final-answer]').waitFor({ state: 'attached', timeout: 120_000 });
      times[rounds].push(await page.evaluate(() => performance.now()));
    }
  }
  const nodes = await page.locator('.react-flow__node').count();
  console.log(`graph in the browser: time from navigation to the drawn graph, median of ${REPEATS}`);
  for (const rounds of SIZES) {
    console.log(`  ${String(rounds).padStart(3)} rounds (${(sizes[rounds] / 1e6).toFixed(1)} MB of spans): ${median(times[rounds]).toFixed(0)} ms (first open, graph computed and cached: ${firstOpen[rounds].toFixed(0)} ms)`);
  }
  const ratio = median(times[500]) / median(times[20]);
  console.log(`  ratio 500 / 20 rounds: ${ratio.toFixed(2)}× (target ≤ 3×); nodes drawn for 500 rounds: ${nodes}`);
  const bySize = Object.fromEntries(SIZES.map((rounds) => [`rounds${rounds}`, { bytes: sizes[rounds], toGraphMs: median(times[rounds]), firstOpenMs: firstOpen[rounds] }]));
  result.write({
    measures: `time-to-graph in Chromium (navigation → the drawn graph) for a recorded 500-round genkit loop vs a 20-round one, saved files opened in the production UI, alternating, median of ${REPEATS}`,
    numbers: { repeats: REPEATS, ...bySize, ratio, nodesDrawn500: nodes },
    summary: `${ratio.toFixed(2)}× (${median(times[500]).toFixed(0)} ms for 500 rounds, ${(sizes[500] / 1e6).toFixed(1)} MB of spans, vs ${median(times[20]).toFixed(0)} ms for 20; first open, graph computed and cached: ${firstOpen[500].toFixed(0)} ms)`,
    target: 'ratio ≤ 3×',
    met: ratio <= 3,
  });
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(directory, { recursive: true, force: true });
}
