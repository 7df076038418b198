/**
 * Benchmark (not a test): what Loopscope's runner process costs per run by itself, with no
 * server. Side by side, alternating in blocks, this process drives over IPC (V8 serializer, as
 * the server does):
 *  A. bare genkit in a child process (bench/lib/bare-genkit-child.ts);
 *  B. the real runner (lib/runtimes/node-runner-main.ts, started as the server starts it, with its
 *     spool), in run mode as `POST /api/runs` starts a run (the step hooks installed);
 *  C. the same runner given no mode (no step hooks).
 * This process only decodes and counts the runner's span messages (as the server reads them),
 * so what B and C cost over A is the runner's own: span reporting, its spool, IPC sends, the
 * tool time limit, the step hooks.
 * bench/capture-overhead.bench.ts measures the whole path (HTTP, server, store, event stream).
 *
 * Run: `node --import tsx bench/runner-process-overhead.bench.ts` (BENCH_BLOCKS, BENCH_RUNS; with
 * BENCH_PROF=<dir> each child writes a CPU profile there when it stops).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunnerEvent } from '../lib/runner/runner-protocol';
import { spanEventsOf } from '../lib/runner/span-batch-frames';
import { RunnerSpool } from '../lib/server/runners/runner-spool';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
const RUNS_PER_BLOCK = Number(process.env.BENCH_RUNS ?? 10);
const MODEL_TURNS = 21;
const SPANS_PER_RUN = 2 * MODEL_TURNS + 20;
const projectDir = process.cwd();
const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-bench-spool-'));

interface Child {
  name: string;
  process: ChildProcess;
  ready: Promise<void>;
  /** One generate; resolves with its wall time (command sent → result received). */
  run: () => Promise<number>;
  spanEnds: number;
}

function startChild(options: { name: string; script: string; spool?: string; mode: boolean }): Child {
  const child = fork(options.script, [], {
    execArgv: ['--max-old-space-size=1024', '--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [])],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, LOOPSCOPE_TOOLS_DIR: path.join(projectDir, 'bench', 'fixtures', 'tools'), ...(options.spool ? { LOOPSCOPE_RUNNER_SPOOL: options.spool } : {}) },
  });
  // Its spool, read as the server reads it: each message's announced range, and what was read goes back with each command.
  const spool = options.spool ? new RunnerSpool(options.spool) : undefined;
  const waiting = new Map<string, () => void>();
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let count = 0;
  const run = () =>
    new Promise<number>((resolve) => {
      const requestId = `${options.name}:${++count}`;
      const start = performance.now();
      waiting.set(requestId, () => resolve(performance.now() - start));
      child.send({ type: 'generate', requestId, runId: requestId, scenario: 'bench-loop', ...(options.mode ? { mode: { kind: 'run' } } : {}), ...(spool ? { spoolRead: spool.read } : {}) });
    });
  const state: Child = { name: options.name, process: child, ready, run, spanEnds: 0 };
  type Message = { type: string; requestId?: string; outcome?: { finishReason?: string }; then?: Message };
  const onMessage = (message: Message): void => {
    if (message.type === 'ready') markReady();
    else if (message.type === 'span-events') {
      const events = spanEventsOf(message as Extract<RunnerEvent, { type: 'span-events' }>, (range) => {
        if (!spool) throw new Error(`${options.name}: a spool range from a runner without a spool`);
        return spool.readRange(range);
      });
      if (events.problems.length > 0) throw new Error(`${options.name}: ${events.problems.join('; ')}`);
      state.spanEnds += events.ends.length;
      // A request's result comes behind its last spans, in the same message (as the server reads it).
      if (message.then) onMessage(message.then);
    }
    else if (message.type === 'generate-result' && message.requestId) {
      if (message.outcome?.finishReason !== 'stop') throw new Error(`${options.name}: a run ended with ${message.outcome?.finishReason ?? 'no outcome'}`);
      waiting.get(message.requestId)?.();
    }
  };
  child.on('message', onMessage);
  return state;
}

async function main() {
  const result = startBenchResult('runner-process-overhead');
  const runner = path.join(projectDir, 'lib', 'runtimes', 'node-runner-main.ts');
  const children = [
    startChild({ name: 'bare', script: path.join(projectDir, 'bench', 'lib', 'bare-genkit-child.ts'), mode: false }),
    startChild({ name: 'runner', script: runner, spool: path.join(spoolDir, 'run.spool'), mode: true }),
    startChild({ name: 'no-hooks', script: runner, spool: path.join(spoolDir, 'no-hooks.spool'), mode: false }),
  ];
  try {
    await Promise.all(children.map((child) => child.ready));
    const times = new Map<string, number[]>(children.map((child) => [child.name, []]));
    for (let block = 0; block < BLOCKS; block++) {
      for (const child of children) for (let index = 0; index < RUNS_PER_BLOCK; index++) times.get(child.name)!.push(await child.run());
    }
    const runs = BLOCKS * RUNS_PER_BLOCK;
    for (const child of children.slice(1)) {
      // Every span of every run reached this process (the warm-up's are not sent).
      if (child.spanEnds !== runs * SPANS_PER_RUN) throw new Error(`${child.name}: ${child.spanEnds} span ends arrived, expected ${runs * SPANS_PER_RUN}`);
    }
    const bare = median(times.get('bare')!);
    console.log(`runner process alone: scenario bench-loop (${MODEL_TURNS} model turns), ${runs} runs each in ${BLOCKS} alternating blocks, command → result over IPC`);
    const labels: Record<string, string> = { runner: 'runner, run mode (hooks)', 'no-hooks': 'runner, no step hooks   ' };
    console.log(`  bare genkit child        : ${bare.toFixed(2)} ms per run (median)`);
    for (const child of children.slice(1)) {
      const perRun = median(times.get(child.name)!);
      console.log(`  ${labels[child.name]} : ${perRun.toFixed(2)} ms per run, ${(perRun / bare).toFixed(2)}× bare`);
    }
    const [runMode, noHooks] = [median(times.get('runner')!), median(times.get('no-hooks')!)];
    result.write({
      measures: `per run, the bench loop (${MODEL_TURNS} model turns) in the real runner process (lib/runtimes/node-runner-main.ts with its spool, in Run mode and without step hooks) vs bare genkit in a child process (bench/lib/bare-genkit-child.ts), all driven over IPC from the bench process, no server; ${BLOCKS} alternating blocks of ${RUNS_PER_BLOCK} runs, every span end counted on arrival`,
      numbers: { runs, blocks: BLOCKS, bareMsPerRun: bare, runModeMsPerRun: runMode, runModeRatio: runMode / bare, noHooksMsPerRun: noHooks, noHooksRatio: noHooks / bare },
      summary: `Run mode ${(runMode / bare).toFixed(2)}× bare, without step hooks ${(noHooks / bare).toFixed(2)}× (bare genkit ${bare.toFixed(2)} ms a run, the runner ${runMode.toFixed(2)} / ${noHooks.toFixed(2)} ms)`,
      target: null,
      met: null,
    });
  } finally {
    for (const child of children) child.process.kill();
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

await main();
