/**
 * Benchmark (not a test): what Loopscope's capture costs per model turn of a genkit Go loop.
 *
 * Side by side in one run, on the same 20-round Go scenario (`go-bench-loop` of
 * bench/fixtures/go-scenarios: 21 model turns, 20 runs of tools/go/'s convertTemperature):
 *  A. Loopscope's path: the real Go runner (go/runner with tools/go/, built by `buildGoRunner`,
 *     started by `startGoRunner`) gets a generate command over its JSON-lines protocol; its spans
 *     go through the OTLP/HTTP batch exporter to a Loopscope receiver on loopback (the server's
 *     decoder and TraceStore, lib/server/ingest/loopback-receiver.ts) and are flushed before the result
 *     is sent. Timed from the command to the result, and to the run's last span stored.
 *  B. bare genkit Go (bench/go/bare, a module of its own): the same genkit.Generate options,
 *     tools and scripted model, spans to OTel's in-memory exporter (tracetest), timed in Go.
 * Runs alternate one by one (A, B, B, A, …), so the other load of a shared machine falls on
 * both sides alike; each pair gives a ratio too. Prints medians per model turn, the ratio
 * (target ≤ 3×), the CPU both sides spent per run, and the load average.
 *
 * Needs the `go` toolchain (the modules come from the Go module proxy on the first build).
 * Run: `node --import tsx bench/go-capture-overhead.bench.ts`.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { buildGoRunner, startGoRunner, type GoRunner } from '../lib/runtimes/genkit-go/run/go-runner';
import { startLoopbackReceiver } from '../lib/server/ingest/loopback-receiver';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10);
const projectDir = process.cwd();
const scenariosDir = path.join(projectDir, 'bench', 'fixtures', 'go-scenarios');
const SCENARIO = 'go-bench-loop';
const MODEL_TURNS = 21;
/** genkit Go records a generate span per turn (each inside the one before), a model span per turn, and a span per tool run. */
const SPANS_PER_RUN = 2 * MODEL_TURNS + 20;

/**
 * `go build` of bench/go/bare into .loopscope/ (ignored by git). The Go build cache (GOCACHE)
 * keeps the packages, so only the first build compiles genkit; later ones link. No VCS stamp:
 * this binary is never shipped.
 */
async function buildBare(): Promise<string> {
  const binary = path.join(projectDir, '.loopscope', 'go-bench-bare');
  try {
    await promisify(execFile)('go', ['build', '-buildvcs=false', '-o', binary, '.'], { cwd: path.join(projectDir, 'bench', 'go', 'bare'), timeout: 600_000, maxBuffer: 8 << 20 });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message);
    // bench/go/bare compiles tools/go/ in: a new requirement there needs `go mod tidy` here too.
    throw new Error(`bench: bench/go/bare does not build (after a change to tools/go/'s go.mod, run \`go mod tidy\` in bench/go/bare):\n${stderr}`, { cause: error });
  }
  return binary;
}

interface BareBatch {
  perRunMs: number[];
  spans: number;
  failure?: string;
}

/** The bare Go loop as a child process: `run(n)` plays n generates and returns their times (measured in Go) and span count. */
function startBare(binary: string) {
  const child = spawn(binary, ['-scenario', path.join(scenariosDir, `${SCENARIO}.json`)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const answers: ((batch: BareBatch) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => answers.shift()?.(JSON.parse(line) as BareBatch));
  const exited = new Promise<never>((_resolve, reject) => child.on('exit', (code) => reject(new Error(`bench: the bare Go loop exited (code ${code}): ${stderr.trim()}`))));
  exited.catch(() => undefined);
  return {
    pid: child.pid as number,
    run(runs: number): Promise<BareBatch> {
      const answer = new Promise<BareBatch>((resolve) => answers.push(resolve));
      child.stdin.write(`${JSON.stringify({ runs })}\n`);
      return Promise.race([answer, exited]);
    },
    stop: () => child.stdin.end(),
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc; undefined where there is none. */
function cpuMs(pid: number): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  // After the name: state, ppid, …; utime and stime are fields 14 and 15 (1-based), in clock ticks (1/100 s).
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const result = startBenchResult('go-capture-overhead');
  console.log(`genkit Go capture overhead: scenario ${SCENARIO} (${MODEL_TURNS} model turns, 20 tool runs), ${PAIRS} run pairs, alternating`);
  const [runnerBinary, bareBinary] = await Promise.all([buildGoRunner({ projectDir, binary: path.join(projectDir, '.loopscope', 'go-runner-bench') }), buildBare()]);

  /** How many spans the receiver has stored, and when it stored its latest batch. */
  let storedCount = 0;
  let storedAt = 0;
  const receiver = await startLoopbackReceiver({
    onStored: (spans) => {
      storedCount += spans.length;
      storedAt = performance.now();
    },
  });
  let runner: GoRunner | undefined;
  const bare = startBare(bareBinary);
  try {
    const goRunner = await startGoRunner({ binary: runnerBinary, projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token, scenariosDir });
    runner = goRunner;
    const loopscopeRun = async () => {
      const before = storedCount;
      const start = performance.now();
      const result = await goRunner.generate({ scenario: SCENARIO });
      const resultAt = performance.now();
      if (result.failure || result.outcome?.finishReason !== 'stop') throw new Error(`bench: the Go runner's run ended ${result.failure?.message ?? result.outcome?.finishReason}`);
      // The runner flushes before it answers, and the receiver answers an export once stored: normally no wait here.
      const deadline = performance.now() + 5_000;
      while (storedCount < before + SPANS_PER_RUN && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      if (storedCount !== before + SPANS_PER_RUN) throw new Error(`bench: the receiver stored ${storedCount - before} spans for one run, expected ${SPANS_PER_RUN}`);
      const stored = (await Promise.all((result.traceIds ?? []).map(async (traceId) => (await receiver.store.get(traceId))?.length ?? 0))).reduce((sum, count) => sum + count, 0);
      if (stored !== SPANS_PER_RUN) throw new Error(`bench: the store holds ${stored} spans of the run's traces, expected ${SPANS_PER_RUN}`);
      // Done when both happened (the receiver's answer to the flush normally comes first).
      return { toResult: (resultAt - start) / MODEL_TURNS, toStored: (storedAt - start) / MODEL_TURNS, toDone: (Math.max(storedAt, resultAt) - start) / MODEL_TURNS };
    };
    const bareRun = async () => {
      const batch = await bare.run(1);
      if (batch.failure || batch.perRunMs.length !== 1) throw new Error(`bench: the bare Go loop failed: ${batch.failure}`);
      if (batch.spans !== SPANS_PER_RUN) throw new Error(`bench: the bare Go loop recorded ${batch.spans} spans, expected ${SPANS_PER_RUN}`);
      return batch.perRunMs[0] / MODEL_TURNS;
    };

    for (let warm = 0; warm < WARM_UP; warm++) {
      await loopscopeRun();
      await bareRun();
    }
    const cpuBefore = { runner: cpuMs(goRunner.pid), bench: process.cpuUsage(), bare: cpuMs(bare.pid) };
    const loadBefore = os.loadavg();
    const toResult: number[] = [];
    const toStored: number[] = [];
    const toDone: number[] = [];
    const bareTimes: number[] = [];
    const ratios: number[] = [];
    // Runs alternate one by one (A, B, B, A, …): on a shared machine the load changes within
    // seconds, and neighbours see the same load. Each pair gives a ratio too.
    for (let pair = 0; pair < PAIRS; pair++) {
      const bareFirst = pair % 2 === 1;
      const plainFirst = bareFirst ? await bareRun() : undefined;
      const captured = await loopscopeRun();
      const plain = plainFirst ?? (await bareRun());
      toResult.push(captured.toResult);
      toStored.push(captured.toStored);
      toDone.push(captured.toDone);
      bareTimes.push(plain);
      ratios.push(captured.toDone / plain);
    }
    const loadAfter = os.loadavg();
    const bench = process.cpuUsage(cpuBefore.bench);
    const runnerCpu = cpuMs(goRunner.pid);
    const bareCpu = cpuMs(bare.pid);

    const bareMedian = median(bareTimes);
    const doneMedian = median(toDone);
    const ratio = doneMedian / bareMedian;
    console.log(`  bare genkit Go + in-memory spans           : ${bareMedian.toFixed(3)} ms per model turn (median)`);
    console.log(`  Loopscope Go runner, command → result      : ${median(toResult).toFixed(3)} ms per model turn (median)`);
    console.log(`  Loopscope Go runner, command → last stored : ${median(toStored).toFixed(3)} ms per model turn (median)`);
    console.log(`  ratio (result and spans stored vs bare)    : ${ratio.toFixed(2)}× of the medians, ${median(ratios).toFixed(2)}× median of the pairs (target ≤ 3×: ${ratio <= 3 ? 'met' : 'MISSED'})`);
    const numbers: Record<string, number | null> = {
      modelTurns: MODEL_TURNS,
      pairs: PAIRS,
      bareMsPerTurn: bareMedian,
      toResultMsPerTurn: median(toResult),
      toStoredMsPerTurn: median(toStored),
      toDoneMsPerTurn: doneMedian,
      ratio,
      medianPairRatio: median(ratios),
      runnerCpuMsPerRun: null,
      receiverCpuMsPerRunAtMost: null,
      bareCpuMsPerRun: null,
    };
    if (cpuBefore.runner !== undefined && runnerCpu !== undefined && cpuBefore.bare !== undefined && bareCpu !== undefined) {
      // This process's CPU is the receiver and store plus the benchmark's own driving of both sides: an upper bound for the receiver.
      const receiverCpu = (bench.user + bench.system) / 1000;
      Object.assign(numbers, { runnerCpuMsPerRun: (runnerCpu - cpuBefore.runner) / PAIRS, receiverCpuMsPerRunAtMost: receiverCpu / PAIRS, bareCpuMsPerRun: (bareCpu - cpuBefore.bare) / PAIRS });
      console.log(
        `  CPU per run                                : runner ${((runnerCpu - cpuBefore.runner) / PAIRS).toFixed(1)} ms + receiver/store ≤ ${(receiverCpu / PAIRS).toFixed(1)} ms vs bare ${((bareCpu - cpuBefore.bare) / PAIRS).toFixed(1)} ms`,
      );
    }
    console.log(`  load average (1 min) before / after        : ${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} on ${os.cpus().length} cores`);
    result.write({
      measures: `per model turn, a 20-round genkit Go loop (go-bench-loop, ${MODEL_TURNS} model turns) through Loopscope's Go runner (JSON-lines command → result, spans over otlptracehttp to a loopback receiver with the server's decoder and store, flushed before the result) vs the same genkit.Generate in a bare Go program (bench/go/bare) with tracetest's in-memory exporter; run pairs alternate`,
      numbers,
      summary: `${ratio.toFixed(2)}× of the medians, ${median(ratios).toFixed(2)}× median of the pairs (bare ${bareMedian.toFixed(3)} ms, through Loopscope ${doneMedian.toFixed(3)} ms per model turn)`,
      target: 'ratio ≤ 3×',
      met: ratio <= 3,
    });
  } finally {
    bare.stop();
    await runner?.stop();
    await receiver.close();
  }
}

await main();
