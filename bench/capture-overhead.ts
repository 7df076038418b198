/**
 * Benchmark (not a test): what Loopscope's capture costs per model turn, and how fast a span
 * reaches the browser.
 *
 * Side by side in one run, on the same 20-round scenario (21 model turns, 20 tool runs):
 *  A. bare genkit in this process: the same tools and scripted model, spans to an
 *     in-memory exporter;
 *  B. Loopscope: POST /api/runs to a production server; the runner runs the generate, its
 *     spans go over IPC to the server, which stores them (written behind the run, flushed
 *     when the result arrives), and the run is reported done (on the event stream) only after
 *     every span was stored.
 * Prints time per model turn for both and the ratio (target ≤ 3×), and the latency from a
 * span's end in the runner to its arrival in Chromium's EventSource (target: median ≤ 100 ms).
 *
 * Needs a production build (`npm run build`) and Debian's Chromium. Run: `npm run bench`. With
 * BENCH_SERVER_PROF=<dir> the server and each runner write a CPU profile there when they stop
 * (bench-server.ts; runners through LOOPSCOPE_RUNNER_CPU_PROF).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { trace } from '@opentelemetry/api';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { startBenchServer, runnersSettled, watchRuns } from './bench-server';
import { median, percentile } from './bench-stats';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4791);
const TOKEN = 'bench-token';
const projectDir = process.cwd();
const toolsDir = path.join(projectDir, 'bench', 'fixtures', 'tools');
const SCENARIO = 'bench-loop';
const MODEL_TURNS = 21;

async function bareGenkit(): Promise<{ perTurn: number[]; cpuPerRun: number }> {
  disableGenkitOTelInitialization();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  const { genkit } = await import('genkit/beta');
  const { loadToolModules } = await import('../lib/runtime/load-tools');
  const { loadScenarios } = await import('../lib/runtime/scenario');
  const { defineScriptedModel } = await import('../lib/runtime/scripted-model');
  const ai = genkit({});
  await loadToolModules(ai, toolsDir);
  const { isGenkitScenario } = await import('../lib/runtime/scenario');
  const scenario = (await loadScenarios(path.join(toolsDir, 'scenarios'))).scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === SCENARIO)!;
  defineScriptedModel(ai, scenario);
  const generate = () =>
    ai.generate({ model: `scripted/${SCENARIO}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
  await generate(); // warm-up
  exporter.reset();
  const perTurn: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < ITERATIONS; index++) {
    const start = performance.now();
    const response = await generate();
    perTurn.push((performance.now() - start) / MODEL_TURNS);
    if (response.finishReason !== 'stop') throw new Error(`bare genkit run ended with ${response.finishReason}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const expected = ITERATIONS * (2 * MODEL_TURNS + 20);
  if (exporter.getFinishedSpans().length !== expected) {
    throw new Error(`bare genkit recorded ${exporter.getFinishedSpans().length} spans, expected ${expected}`);
  }
  return { perTurn, cpuPerRun: (cpu.user + cpu.system) / 1000 / ITERATIONS };
}

/** B: the same loop run through Loopscope: POST /api/runs, done when the event stream says so. */
async function loopscopeRuns(iterations: number): Promise<number[]> {
  const watcher = watchRuns({ port: PORT, token: TOKEN });
  await watcher.ready;
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const runOnce = async () => {
    const start = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORT}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ scenario: SCENARIO }) });
    const { run } = (await response.json()) as { run: { runId: string } };
    const status = await watcher.whenFinished(run.runId);
    if (status !== 'finished') throw new Error(`Loopscope run ended ${status}`);
    return performance.now() - start;
  };
  await runOnce(); // warm-up
  const perTurn: number[] = [];
  for (let index = 0; index < iterations; index++) perTurn.push((await runOnce()) / MODEL_TURNS);
  watcher.close();
  return perTurn;
}

/** Latency: a Chromium page listens to every span while runs go on; span end → arrival. */
async function browserLatency(iterations: number) {
  const browser = await chromium.launch({
    executablePath: process.env.LOOPSCOPE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await page.evaluate((token) => {
      const state = { arrivals: [] as { endNanos: string; arrivedAt: number }[], ready: false };
      (window as unknown as { benchState: typeof state }).benchState = state;
      const source = new EventSource(`/api/events?all=1&token=${encodeURIComponent(token)}`);
      source.addEventListener('ready', () => (state.ready = true));
      source.addEventListener('spans', (message) => {
        const arrivedAt = Date.now();
        const event = JSON.parse((message as MessageEvent<string>).data) as { spans: { endTimeUnixNano?: string }[] };
        for (const span of event.spans) if (span.endTimeUnixNano) state.arrivals.push({ endNanos: span.endTimeUnixNano, arrivedAt });
      });
    }, TOKEN);
    await page.waitForFunction(() => (window as unknown as { benchState: { ready: boolean } }).benchState.ready);
    await loopscopeRuns(iterations);
    await page.waitForTimeout(300);
    const arrivals = await page.evaluate(() => (window as unknown as { benchState: { arrivals: { endNanos: string; arrivedAt: number }[] } }).benchState.arrivals);
    return { latencies: arrivals.map((arrival) => arrival.arrivedAt - Number(arrival.endNanos.slice(0, -6))), spanCount: arrivals.length };
  } finally {
    await browser.close();
  }
}

/**
 * CPU time (user + system, ms) used so far by a process (the server and Next) and, apart, by
 * all its descendants (the runners), from /proc: a cost figure that the machine's other load
 * disturbs far less than wall time. Undefined where there is no /proc.
 */
function treeCpuMs(rootPid: number): { server: number; runners: number } | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stats = new Map<number, { parent: number; cpu: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      // After the name: state, ppid, …; utime and stime are fields 14 and 15 (1-based), in clock ticks (1/100 s).
      stats.set(Number(entry), { parent: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // the process ended while we looked
    }
  }
  const inTree = (pid: number): boolean => {
    for (let current = pid, hops = 0; current > 1 && hops < 20; current = stats.get(current)?.parent ?? 0, hops++) if (current === rootPid) return true;
    return false;
  };
  const total = { server: 0, runners: 0 };
  for (const [pid, stat] of stats) {
    if (pid === rootPid) total.server += stat.cpu;
    else if (inTree(pid)) total.runners += stat.cpu;
  }
  return total;
}

async function main() {
  if (!existsSync(path.join(projectDir, '.next', 'BUILD_ID'))) {
    console.error('bench: no production build; run `npm run build` first.');
    process.exit(2);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-bench-'));
  try {
    console.log(`capture overhead: scenario ${SCENARIO} (${MODEL_TURNS} model turns, 20 tool runs), ${ITERATIONS} runs each, side by side`);
    const bare = await bareGenkit();
    const server = await startBenchServer({ port: PORT, token: TOKEN, dataDir, toolsDir });
    if (!process.env.BENCH_NO_SETTLE) await runnersSettled({ port: PORT, token: TOKEN });
    let captured: number[];
    let latency: { latencies: number[]; spanCount: number };
    let cpuPerRun: { server: number; runners: number } | undefined;
    try {
      const cpuBefore = treeCpuMs(server.pid as number);
      captured = await loopscopeRuns(ITERATIONS);
      const cpuAfter = treeCpuMs(server.pid as number);
      // The warm-up run is measured too (ITERATIONS + 1 runs).
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        cpuPerRun = { server: (cpuAfter.server - cpuBefore.server) / (ITERATIONS + 1), runners: (cpuAfter.runners - cpuBefore.runners) / (ITERATIONS + 1) };
      }
      latency = await browserLatency(LATENCY_RUNS);
    } finally {
      server.kill('SIGTERM');
    }
    const bareMedian = median(bare.perTurn);
    const loopscopeMedian = median(captured);
    const expectedSpans = (LATENCY_RUNS + 1) * (2 * MODEL_TURNS + 20);
    console.log(`  bare genkit + in-memory spans : ${bareMedian.toFixed(3)} ms per model turn (median), CPU ${bare.cpuPerRun.toFixed(1)} ms per run`);
    console.log(`  Loopscope runner+capture+store: ${loopscopeMedian.toFixed(3)} ms per model turn (median)`);
    console.log(`  ratio                         : ${(loopscopeMedian / bareMedian).toFixed(2)}× (target ≤ 3×)`);
    if (cpuPerRun !== undefined) {
      const total = cpuPerRun.server + cpuPerRun.runners;
      console.log(`  CPU of server + runners       : ${total.toFixed(1)} ms per run (server ${cpuPerRun.server.toFixed(1)}, runners ${cpuPerRun.runners.toFixed(1)}; ${(total / MODEL_TURNS).toFixed(2)} ms per model turn)`);
    }
    console.log(`span end (runner) → browser EventSource: median ${median(latency.latencies).toFixed(1)} ms, p95 ${percentile(latency.latencies, 95).toFixed(1)} ms over ${latency.spanCount} spans of ${LATENCY_RUNS + 1} runs (target median ≤ 100 ms)`);
    if (latency.spanCount !== expectedSpans) console.log(`  WARNING: ${latency.spanCount} spans reached the browser, expected ${expectedSpans}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
