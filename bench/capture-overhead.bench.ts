/**
 * Benchmark (not a test): what Loopscope's capture costs per model turn, and how fast a span
 * reaches the browser.
 *
 * Side by side in one run, on the same 20-round scenario (21 model turns, 20 tool runs):
 *  A. bare genkit in this process: the same tools and scripted model, spans to an
 *     in-memory exporter;
 *  B. Loopscope: POST /api/runs to a production server; the runner runs the generate, its
 *     spans go over IPC to the server, which stores them (written behind the run, handed to
 *     the store when the result arrives), and the run is reported done (on the event stream)
 *     once every span is in the store's queue: any read after that sees them (read-your-writes;
 *     checked after the runs: the store lists every run's trace with all its spans).
 * Bare and captured runs alternate in blocks, so both meet the same machine load. Prints time
 * per model turn for both and the ratio (target ≤ 2×, issue 15), the CPU per captured run of the
 * server and of the runners, the first run on a fresh runner, and the latency from a span's end
 * in the runner to its arrival in Chromium's EventSource (target: median ≤ 50 ms).
 * After each block, two runs of `bench-floor` (one model turn that answers at once, no tools)
 * give the path's floor: what any run pays around its generate (HTTP in, IPC to the runner and
 * back, the event out), and what the ratio would be if that were the only cost.
 * Then four runs through the bare wire (bench/lib/bare-wire.ts: a node:http server, an IPC child
 * that answers at once, an event stream; the same client) give the hops' own cost on this
 * machine, which no code of Loopscope's can take away, and how much of the floor is Loopscope's.
 * Last in each block, C: the same loop with genkit's own capture, the one the Genkit Dev UI
 * reads (bench/lib/genkit-dev-capture-child.ts: GENKIT_ENV=dev, every span POSTed as it ends to
 * `@genkit-ai/telemetry-server` in its own process; a run is done when all its POSTs are
 * answered), checked after the runs by counting the spans that server holds.
 *
 * Needs a production build (`npm run build`) and Debian's Chromium. Run: `npm run bench`. With
 * BENCH_SERVER_PROF=<dir> the server and each runner write a CPU profile there when they stop
^ * (bench/lib/bench-server.ts; runners through LOOPSCOPE_RUNNER_CPU_PROF).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { postJson, spawnReady, startBenchServer, startGenkitTelemetryServer, runnersSettled, watchRuns } from './lib/bench-server';
import { median, percentile } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 48);
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4791);
/** The bare wire's port (bench/lib/bare-wire.ts). */
const WIRE_PORT = PORT + 1;
/** Genkit's telemetry server's port (side C). */
const GENKIT_TELEMETRY_PORT = PORT + 2;
const TOKEN = 'bench-token';
const projectDir = process.cwd();
const toolsDir = path.join(projectDir, 'bench', 'fixtures', 'tools');
const SCENARIO = 'bench-loop';
const MODEL_TURNS = 21;
/** One model turn that answers at once, no tools: its run is the path's floor, what any run pays around its generate. */
const FLOOR_SCENARIO = 'bench-floor';
/** Its spans: the generate and the model call. */
const FLOOR_SPANS = 2;
/** Floor runs after each block's captured runs (BENCH_FLOOR_RUNS). */
const FLOOR_RUNS_PER_BLOCK = Number(process.env.BENCH_FLOOR_RUNS ?? 2);
/** Runs through the bare wire after each block's floor runs (BENCH_WIRE_RUNS). */
const WIRE_RUNS_PER_BLOCK = Number(process.env.BENCH_WIRE_RUNS ?? 4);
/** Bare and captured runs alternate in this many blocks (BENCH_BLOCKS). */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 12);
/** Issue 15 item 4: capture overhead per model turn ≤ 2× bare genkit, span end → browser median ≤ 50 ms. */
const RATIO_TARGET = 2;
const LATENCY_TARGET_MS = 50;

/** A: bare genkit in this process. Returns one block of runs: per-turn times and CPU per run. */
async function bareGenkit(): Promise<(runs: number) => Promise<{ perTurn: number[]; cpuMs: number }>> {
  disableGenkitOTelInitialization();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  // A context manager, as any OTel setup (and the runner's NodeSDK) registers: without one every
  // span is a root of its own trace (62 traces of one span per run), not the run's trace.
  // Measured: +≈2 ms of CPU per run, the same wall time.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const { genkit } = await import('genkit/beta');
  const { loadToolModules } = await import('../lib/runtimes/genkit-js/run/load-tools');
  const { loadScenarios } = await import('../lib/runner/scenario');
  const { defineScriptedModel } = await import('../lib/runtimes/genkit-js/run/scripted-model');
  const ai = genkit({});
  await loadToolModules(ai, toolsDir);
  const { isGenkitScenario } = await import('../lib/runtimes/genkit-js/read/genkit-scenario');
  const scenario = (await loadScenarios(path.join(toolsDir, 'scenarios'))).scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === SCENARIO)!;
  defineScriptedModel(ai, scenario);
  const generate = () =>
    ai.generate({ model: `scripted/${SCENARIO}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns });
  await generate(); // warm-up
  return async (runs) => {
    exporter.reset();
    const perTurn: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let index = 0; index < runs; index++) {
      const start = performance.now();
      const response = await generate();
      perTurn.push((performance.now() - start) / MODEL_TURNS);
      if (response.finishReason !== 'stop') throw new Error(`bare genkit run ended with ${response.finishReason}`);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const expected = runs * (2 * MODEL_TURNS + 20);
    const spans = exporter.getFinishedSpans();
    const traces = new Set(spans.map((span) => span.spanContext().traceId)).size;
    if (spans.length !== expected || traces !== runs) throw new Error(`bare genkit recorded ${spans.length} spans in ${traces} traces, expected ${expected} in ${runs}`);
    return { perTurn, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

/** B: the same loop run through Loopscope (or the bare wire on WIRE_PORT): POST /api/runs, done when the event stream says so. */
async function loopscopeRunner(port = PORT): Promise<{ runs: (count: number) => Promise<number[]>; floorRuns: (count: number) => Promise<number[]>; close: () => void }> {
  const watcher = watchRuns({ port, token: TOKEN });
  await watcher.ready;
  const runOnce = async (scenario = SCENARIO) => {
    const start = performance.now();
    const { run } = await postJson<{ run: { runId: string } }>({ port, token: TOKEN, path: '/api/runs', body: { scenario } });
    const status = await watcher.whenFinished(run.runId);
    if (status !== 'finished') throw new Error(`Loopscope run ended ${status}`);
    return performance.now() - start;
  };
  const runs = async (count: number) => {
    const perTurn: number[] = [];
    for (let index = 0; index < count; index++) perTurn.push((await runOnce()) / MODEL_TURNS);
    return perTurn;
  };
  /** Wall time of whole runs of the floor scenario. */
  const floorRuns = async (count: number) => {
    const wall: number[] = [];
    for (let index = 0; index < count; index++) wall.push(await runOnce(FLOOR_SCENARIO));
    return wall;
  };
  return { runs, floorRuns, close: () => watcher.close() };
}

/**
 * C: bare genkit with its own dev-mode capture into genkit's telemetry server, in a child
 * process (bench/lib/genkit-dev-capture-child.ts) that times its runs itself, so no IPC is billed to
 * it. Its working folder is a temporary one with a package.json of its own: the dev mode's
 * reflection server writes a runtime file under it.
 */
async function genkitDevCapture(telemetryUrl: string, workDir: string) {
  const child = fork(path.join(projectDir, 'bench', 'lib', 'genkit-dev-capture-child.ts'), [], {
    cwd: workDir,
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, GENKIT_ENV: 'dev', GENKIT_TELEMETRY_SERVER: telemetryUrl, BENCH_PROJECT_DIR: projectDir, TSX_TSCONFIG_PATH: path.join(projectDir, 'tsconfig.json') },
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  type Answer = { type: 'ready' } | { type: 'block'; runMs: number[] } | { type: 'traces'; traceIds: string[] } | { type: 'error'; message: string };
  const next = <T extends Answer['type']>(type: T) =>
    new Promise<Extract<Answer, { type: T }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`genkit's dev capture child exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (answer: Answer) => {
        child.off('exit', onExit);
        if (answer.type === 'error') reject(new Error(`genkit's dev capture: ${answer.message}`));
        else if (answer.type !== type) reject(new Error(`genkit's dev capture answered ${answer.type}, expected ${type}`));
        else resolve(answer as Extract<Answer, { type: T }>);
      });
    });
  await next('ready');
  return {
    block: async (runs: number) => {
      const answer = next('block');
      child.send({ type: 'block', runs });
      return (await answer).runMs.map((ms) => ms / MODEL_TURNS);
    },
    traceIds: async () => {
      const answer = next('traces');
      child.send({ type: 'traces' });
      return (await answer).traceIds;
    },
    close: () => child.kill('SIGTERM'),
  };
}

/** Every run of side C is in genkit's telemetry server with all its spans, counted there. @throws naming what is missing. */
async function checkGenkitStored({ telemetryUrl, traceIds, runs }: { telemetryUrl: string; traceIds: string[]; runs: number }): Promise<number> {
  if (traceIds.length !== runs) throw new Error(`genkit's dev capture posted ${traceIds.length} traces, expected ${runs}`);
  let spans = 0;
  for (const traceId of traceIds) {
    const response = await fetch(`${telemetryUrl}/api/traces/${traceId}`);
    const trace = (await response.json()) as { spans?: Record<string, unknown> };
    const count = Object.keys(trace.spans ?? {}).length;
    if (count !== 2 * MODEL_TURNS + 20) throw new Error(`genkit's telemetry server holds ${count} spans of trace ${traceId}, expected ${2 * MODEL_TURNS + 20}`);
    spans += count;
  }
  return spans;
}

/**
 * Every captured run's spans are in the store, all 62 of each: a run is reported done once its
 * spans are handed to the store, and the store answers this list after them (read-your-writes).
 */
async function checkStored({ runs, floorRuns }: { runs: number; floorRuns: number }): Promise<{ generateMs: number[]; floorGenerateMs: number[] }> {
  const response = await fetch(`http://127.0.0.1:${PORT}/api/traces`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const { traces } = (await response.json()) as { traces: { spanCount: number; startTime: number; endTime?: number }[] };
  const whole = traces.filter((summary) => summary.spanCount === 2 * MODEL_TURNS + 20);
  const floor = traces.filter((summary) => summary.spanCount === FLOOR_SPANS);
  if (traces.length !== runs + floorRuns || whole.length !== runs || floor.length !== floorRuns) {
    throw new Error(`the store holds ${traces.length} traces (${whole.length} with all ${2 * MODEL_TURNS + 20} spans, ${floor.length} with ${FLOOR_SPANS}), expected ${runs} and ${floorRuns}`);
  }
  // The trace's own time: genkit's generate inside the runner, from its root span's start to its end.
  const duration = (summary: { startTime: number; endTime?: number }) => (summary.endTime ?? summary.startTime) - summary.startTime;
  return { generateMs: whole.map(duration), floorGenerateMs: floor.map(duration) };
}

/** The wire alone (bench/lib/bare-wire.ts): the path's hops with no work in them. Resolves once it listens. */
function startBareWire(port: number): Promise<ChildProcess> {
  return spawnReady({ name: 'the bare wire', args: ['--import', 'tsx', path.join('bench', 'lib', 'bare-wire.ts')], env: { ...process.env, PORT: String(port) }, ready: 'listening' });
}

/** Loopscope's run used for the latency figure (the browser counts its spans). */
async function loopscopeRuns(iterations: number): Promise<void> {
  const runner = await loopscopeRunner();
  await runner.runs(iterations + 1);
  runner.close();
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
  const result = startBenchResult('capture-overhead');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-bench-'));
  // Side C's: genkit's telemetry server's files, and the dev-mode child's working folder.
  const genkitDir = mkdtempSync(path.join(os.tmpdir(), 'genkit-telemetry-bench-'));
  const genkitWorkDir = mkdtempSync(path.join(os.tmpdir(), 'genkit-dev-bench-'));
  // The reflection server writes its runtime file under the nearest package.json's folder.
  writeFileSync(path.join(genkitWorkDir, 'package.json'), JSON.stringify({ name: 'genkit-dev-bench', private: true }));
  const telemetryUrl = `http://127.0.0.1:${GENKIT_TELEMETRY_PORT}`;
  try {
    console.log(`capture overhead: scenario ${SCENARIO} (${MODEL_TURNS} model turns, 20 tool runs), ${ITERATIONS} runs each, in ${BLOCKS} alternating blocks`);
    const bareBlock = await bareGenkit();
    const server = await startBenchServer({ port: PORT, token: TOKEN, dataDir, toolsDir });
    if (!process.env.BENCH_NO_SETTLE) await runnersSettled({ port: PORT, token: TOKEN });
    const bareWire = await startBareWire(WIRE_PORT);
    const genkitTelemetry = await startGenkitTelemetryServer({ port: GENKIT_TELEMETRY_PORT, storeRoot: genkitDir });
    const devCapture = await genkitDevCapture(telemetryUrl, genkitWorkDir);
    const devCaptured: number[] = [];
    let devSpans = 0;
    const bare: number[] = [];
    let bareCpuMs = 0;
    const captured: number[] = [];
    const floorWall: number[] = [];
    const wireWall: number[] = [];
    const cpu = { server: 0, runners: 0 };
    /** Each block's captured median over its bare median: this VM's speed drifts by half within a minute, a block's pair meets the same speed. */
    const blockRatios: number[] = [];
    let first: { wallMs: number; cpuMs?: number };
    let latency: { latencies: number[]; spanCount: number };
    let stored: { generateMs: number[]; floorGenerateMs: number[] };
    try {
      const loopscope = await loopscopeRunner();
      const wire = await loopscopeRunner(WIRE_PORT);
      // The first run on a fresh runner (it warmed genkit up before it said ready), measured apart.
      const firstBefore = treeCpuMs(server.pid as number);
      const [firstPerTurn] = await loopscope.runs(1);
      const firstAfter = treeCpuMs(server.pid as number);
      first = { wallMs: firstPerTurn * MODEL_TURNS, cpuMs: firstBefore && firstAfter ? firstAfter.server + firstAfter.runners - firstBefore.server - firstBefore.runners : undefined };
      // Bare and captured runs alternate in blocks, so the machine's load (other work on its 2
      // cores) weighs on both alike, and the ratio compares like with like.
      for (let block = 0; block < BLOCKS; block++) {
        const runs = Math.ceil(ITERATIONS / BLOCKS);
        const bareRuns = await bareBlock(runs);
        bare.push(...bareRuns.perTurn);
        bareCpuMs += bareRuns.cpuMs;
        const before = treeCpuMs(server.pid as number);
        const capturedRuns = await loopscope.runs(runs);
        captured.push(...capturedRuns);
        blockRatios.push(median(capturedRuns) / median(bareRuns.perTurn));
        const after = treeCpuMs(server.pid as number);
        if (before && after) {
          cpu.server += after.server - before.server;
          cpu.runners += after.runners - before.runners;
        }
        // Outside the CPU figures: the floor is a different run. A read first commits what the
        // block's runs left waiting (reads commit at once), so the floor meets no commit of theirs.
        await fetch(`http://127.0.0.1:${PORT}/api/traces`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((response) => response.arrayBuffer());
        floorWall.push(...(await loopscope.floorRuns(FLOOR_RUNS_PER_BLOCK)));
        wireWall.push(...(await wire.floorRuns(WIRE_RUNS_PER_BLOCK)));
        devCaptured.push(...(await devCapture.block(runs)));
      }
      loopscope.close();
      wire.close();
      stored = await checkStored({ runs: captured.length + 1, floorRuns: floorWall.length });
      devSpans = await checkGenkitStored({ telemetryUrl, traceIds: await devCapture.traceIds(), runs: devCaptured.length });
      latency = await browserLatency(LATENCY_RUNS);
    } finally {
      server.kill('SIGTERM');
      bareWire.kill('SIGTERM');
      devCapture.close();
      genkitTelemetry.kill('SIGTERM');
    }
    const bareMedian = median(bare);
    const loopscopeMedian = median(captured);
    const ratio = loopscopeMedian / bareMedian;
    const expectedSpans = (LATENCY_RUNS + 1) * (2 * MODEL_TURNS + 20);
    const cpuRun = { server: cpu.server / captured.length, runners: cpu.runners / captured.length };
    /** What the run printed, for bench/results/capture-overhead.json. */
    const numbers: Record<string, number | null> = {
      modelTurns: MODEL_TURNS,
      capturedRuns: captured.length,
      blocks: BLOCKS,
      bareMsPerTurn: bareMedian,
      bareCpuMsPerRun: bareCpuMs / bare.length,
      loopscopeMsPerTurn: loopscopeMedian,
      ratio,
    };
    console.log(`  bare genkit + in-memory spans : ${bareMedian.toFixed(3)} ms per model turn (median), CPU ${(bareCpuMs / bare.length).toFixed(1)} ms per run`);
    console.log(`  Loopscope runner+capture+store: ${loopscopeMedian.toFixed(3)} ms per model turn (median)`);
    console.log(`  ratio                         : ${ratio.toFixed(2)}× (target ≤ ${RATIO_TARGET}×: ${ratio <= RATIO_TARGET ? 'met' : 'NOT met'})`);
    const sortedRatios = [...blockRatios].sort((a, b) => a - b);
    Object.assign(numbers, { blockRatioMedian: median(blockRatios), blockRatioMin: sortedRatios[0], blockRatioMax: sortedRatios.at(-1)! });
    console.log(`  ratio per block               : median ${median(blockRatios).toFixed(2)}×, ${sortedRatios[0].toFixed(2)}–${sortedRatios.at(-1)!.toFixed(2)}× over ${blockRatios.length} blocks`);
    // Where a captured run's time goes: the generate in the runner (its trace's duration) and the rest of the path.
    const generateMs = median(stored.generateMs);
    const wallMs = loopscopeMedian * MODEL_TURNS;
    Object.assign(numbers, { capturedRunMs: wallMs, generateInRunnerMs: generateMs, generateRatioToBare: generateMs / (bareMedian * MODEL_TURNS), pathMs: wallMs - generateMs });
    console.log(
      `  of a captured run (${wallMs.toFixed(1)} ms): genkit's generate in the runner ${generateMs.toFixed(1)} ms (${(generateMs / (bareMedian * MODEL_TURNS)).toFixed(2)}× bare), the path around it (HTTP, IPC, store, event) ${(wallMs - generateMs).toFixed(1)} ms`,
    );
    if (floorWall.length > 0) {
      // What any run pays around its generate (two process hops each way and the event), which a per-turn figure spreads over the run's turns.
      const floorMs = median(floorWall);
      const floorPathMs = floorMs - median(stored.floorGenerateMs);
      const bareRunMs = bareMedian * MODEL_TURNS;
      Object.assign(numbers, { floorRuns: floorWall.length, floorMs, floorPathMs, floorAloneRatio: (bareRunMs + floorPathMs) / bareRunMs });
      console.log(
        `  the path's floor              : a one-turn run with no tools (${floorWall.length} runs) takes ${floorMs.toFixed(1)} ms, ${floorPathMs.toFixed(1)} ms of it around its generate; with no other cost, this loop would be ${((bareRunMs + floorPathMs) / bareRunMs).toFixed(2)}× bare`,
      );
      if (wireWall.length > 0) {
        // The same hops with nothing on them: what of the floor is this machine's, not Loopscope's.
        const wireMs = median(wireWall);
        Object.assign(numbers, {
          wireRuns: wireWall.length,
          wireMs,
          wireAloneRatio: (bareRunMs + wireMs) / bareRunMs,
          floorOverWireMs: floorPathMs - wireMs,
          targetLeavesRatio: RATIO_TARGET - wireMs / bareRunMs,
          generateAndPathRatio: (wallMs - wireMs) / bareRunMs,
          pathOverWireRatio: (wallMs - generateMs - wireMs) / bareRunMs,
        });
        console.log(
          `  the wire alone                : the same hops with no work on them (bench/lib/bare-wire.ts, ${wireWall.length} runs) take ${wireMs.toFixed(1)} ms a run, alone ${((bareRunMs + wireMs) / bareRunMs).toFixed(2)}× bare; Loopscope's floor is ${(floorPathMs - wireMs).toFixed(1)} ms over it`,
        );
        // The target less the wire: what is left for the generate in the runner and all of Loopscope's own path.
        console.log(
          `  what ≤ ${RATIO_TARGET}× leaves              : ${(RATIO_TARGET - wireMs / bareRunMs).toFixed(2)}× bare for the generate in the runner and Loopscope's path together (they took ${((wallMs - wireMs) / bareRunMs).toFixed(2)}×: the generate ${(generateMs / bareRunMs).toFixed(2)}×, the path over the wire ${((wallMs - generateMs - wireMs) / bareRunMs).toFixed(2)}×)`,
        );
      }
    }
    if (existsSync('/proc/self/stat')) {
      const total = cpuRun.server + cpuRun.runners;
      Object.assign(numbers, { serverCpuMsPerRun: cpuRun.server, runnersCpuMsPerRun: cpuRun.runners });
      console.log(`  CPU of server + runners       : ${total.toFixed(1)} ms per run (server ${cpuRun.server.toFixed(1)}, runners ${cpuRun.runners.toFixed(1)}; ${(total / MODEL_TURNS).toFixed(2)} ms per model turn)`);
    }
    // Beside genkit's own capture, the one the Dev UI reads: the same loop, spans stored in its telemetry server.
    const devMedian = median(devCaptured);
    Object.assign(numbers, { genkitDevMsPerTurn: devMedian, genkitDevRatio: devMedian / bareMedian, genkitDevRuns: devCaptured.length, genkitDevSpans: devSpans, loopscopeToGenkitDev: loopscopeMedian / devMedian });
    console.log(
      `  genkit's own capture (Dev UI) : ${devMedian.toFixed(3)} ms per model turn (median), ${(devMedian / bareMedian).toFixed(2)}× bare: every span POSTed to @genkit-ai/telemetry-server as it ends (${devCaptured.length} runs, ${devSpans} spans counted there); Loopscope's captured run takes ${(loopscopeMedian / devMedian).toFixed(2)}× its time`,
    );
    console.log(`  first run on a fresh runner   : ${first.wallMs.toFixed(1)} ms${first.cpuMs !== undefined ? `, CPU ${first.cpuMs.toFixed(0)} ms` : ''}`);
    const latencyMedian = median(latency.latencies);
    Object.assign(numbers, { firstRunMs: first.wallMs, firstRunCpuMs: first.cpuMs ?? null, latencyMedianMs: latencyMedian, latencyP95Ms: percentile(latency.latencies, 95), latencySpans: latency.spanCount, latencyRuns: LATENCY_RUNS + 1 });
    console.log(
      `span end (runner) → browser EventSource: median ${latencyMedian.toFixed(1)} ms, p95 ${percentile(latency.latencies, 95).toFixed(1)} ms over ${latency.spanCount} spans of ${LATENCY_RUNS + 1} runs (target median ≤ ${LATENCY_TARGET_MS} ms: ${latencyMedian <= LATENCY_TARGET_MS ? 'met' : 'NOT met'})`,
    );
    if (latency.spanCount !== expectedSpans) console.log(`  WARNING: ${latency.spanCount} spans reached the browser, expected ${expectedSpans}`);
    const floorPart = numbers.floorMs !== undefined ? `; the floor ${(numbers.floorPathMs as number).toFixed(1)} ms around its generate${numbers.wireMs !== undefined ? `, the wire's hops ${(numbers.wireMs as number).toFixed(1)} ms` : ''}` : '';
    result.write({
      measures: `per model turn, a 20-round loop (${MODEL_TURNS} model turns) through Loopscope (POST /api/runs, runner, spans through its spool announced over IPC, write-behind store, done when the event stream says so) vs the same generate calls in bare genkit with an in-memory span processor, in ${BLOCKS} alternating blocks; after each block the path's floor (bench-floor: one model turn, no tools), the bare wire's hops (bench/lib/bare-wire.ts) and genkit's own capture, the Dev UI's (each span POSTed into @genkit-ai/telemetry-server); then span end in the runner → arrival in Chromium's EventSource`,
      numbers,
      summary: `${ratio.toFixed(2)}× (bare genkit ${(bareMedian * MODEL_TURNS).toFixed(1)} ms a run, captured ${wallMs.toFixed(1)} ms; the generate in the runner ${(generateMs / (bareMedian * MODEL_TURNS)).toFixed(2)}× bare, the path around it ${(wallMs - generateMs).toFixed(1)} ms${floorPart}); genkit's own capture ${(devMedian / bareMedian).toFixed(2)}× bare, Loopscope's captured run ${(loopscopeMedian / devMedian).toFixed(2)}× its time; span end → browser median ${latencyMedian.toFixed(1)} ms, p95 ${percentile(latency.latencies, 95).toFixed(1)} ms (${latency.spanCount} spans)`,
      target: `ratio ≤ ${RATIO_TARGET}× (issue 15); span end → browser median ≤ ${LATENCY_TARGET_MS} ms`,
      met: ratio <= RATIO_TARGET && latencyMedian <= LATENCY_TARGET_MS,
    });
  } finally {
    for (const dir of [dataDir, genkitDir, genkitWorkDir]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
