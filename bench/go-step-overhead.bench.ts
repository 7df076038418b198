/**
 * Benchmark (not a test): the cost of the genkit Go step hooks when no pause is taken. The same
 * 20-round Go loop (`go-bench-loop` of bench/fixtures/go-scenarios: 21 model turns, 20 runs of
 * tools/go/'s convertTemperature) runs in the real Go runner (go/runner, built by
 * `buildGoRunner`), bare (no mode: no middleware installed) and stepped with no pause taken — in
 * Run mode (the step middleware installed, as the JS runner installs its hooks for every run) and
 * in Breakpoints mode with none set (where a stepped run is after Continue: its open spans told
 * as span-start lines, its ended spans flushed soon). Runs alternate one by one in one runner,
 * spans exported to a loopback receiver. Timed from the command to the result. Prints the
 * ratios per model turn. Target ≤ 1.1.
 *
 * Needs the `go` toolchain. Run: `node --import tsx bench/go-step-overhead.bench.ts`.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunMode } from '../lib/contract/run-mode';
import { buildGoRunner, startGoRunner } from '../lib/runtimes/genkit-go/run/go-runner';
import { startLoopbackReceiver } from '../lib/server/ingest/loopback-receiver';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10);
const MODEL_TURNS = 21;
const projectDir = process.cwd();

const result = startBenchResult('go-step-overhead');
const receiver = await startLoopbackReceiver();
const binary = await buildGoRunner({ projectDir });
let spanStarts = 0;
const runner = await startGoRunner({
  binary,
  projectDir,
  otlpEndpoint: receiver.endpoint,
  token: receiver.token,
  scenariosDir: path.join(projectDir, 'bench', 'fixtures', 'go-scenarios'),
  onStepLine: (line) => {
    if (line.type === 'span-start') spanStarts += 1;
    else if (line.type === 'paused') throw new Error('bench: a run paused, but no breakpoint is set');
  },
});

const MODES: Record<string, RunMode | undefined> = {
  bare: undefined,
  run: { kind: 'run' },
  breakpoints: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [] } },
};
let runs = 0;

async function runLoop(mode: RunMode | undefined): Promise<number> {
  const start = performance.now();
  const result = await runner.generate({ scenario: 'go-bench-loop', ...(mode ? { runId: `bench-${(runs += 1)}`, mode } : {}) });
  const elapsed = performance.now() - start;
  if (result.outcome?.finishReason !== 'stop') throw new Error(`bench: the run ended ${result.failure?.message ?? result.outcome?.finishReason}`);
  return elapsed / MODEL_TURNS;
}

try {
  for (let warm = 0; warm < WARM_UP; warm++) for (const mode of Object.values(MODES)) await runLoop(mode);
  const times: Record<string, number[]> = { bare: [], run: [], breakpoints: [] };
  const ratios: Record<string, number[]> = { run: [], breakpoints: [] };
  const startsBefore = spanStarts;
  // Alternating (bare first, then last, …): on a shared machine the load changes within seconds.
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? ['bare', 'run', 'breakpoints'] : ['breakpoints', 'run', 'bare'];
    const measured: Record<string, number> = {};
    for (const name of order) measured[name] = await runLoop(MODES[name]);
    for (const name of order) times[name].push(measured[name]);
    ratios.run.push(measured.run / measured.bare);
    ratios.breakpoints.push(measured.breakpoints / measured.bare);
  }
  const ms = (values: number[]) => `${median(values).toFixed(3)} ms per model turn (median)`;
  const ratio = (name: string) => `${(median(times[name]) / median(times.bare)).toFixed(3)}× of the medians, ${median(ratios[name]).toFixed(3)}× median of the triples`;
  console.log(`genkit Go step hooks, no pause taken: ${MODEL_TURNS} model turns per run, ${PAIRS} runs each, alternating, in the real Go runner`);
  console.log(`  bare (no middleware)               : ${ms(times.bare)}`);
  console.log(`  Run mode (middleware installed)    : ${ms(times.run)}`);
  console.log(`  Breakpoints, none set (span starts): ${ms(times.breakpoints)}`);
  console.log(`  ratio, Run mode                    : ${ratio('run')} (target ≤ 1.1)`);
  console.log(`  ratio, Breakpoints                 : ${ratio('breakpoints')} (target ≤ 1.1)`);
  console.log(`  span-start lines told              : ${(spanStarts - startsBefore) / (2 * PAIRS)} per stepped run`);
  const ratioOf = (name: string) => median(times[name]) / median(times.bare);
  const [runRatio, breakpointsRatio] = [ratioOf('run'), ratioOf('breakpoints')];
  result.write({
    measures: `per model turn, the 20-round genkit Go loop (go-bench-loop, ${MODEL_TURNS} model turns) in the real Go runner with the step middleware in Run mode, and in Breakpoints mode with none set (span starts told), vs no middleware; runs alternate one by one`,
    numbers: {
      modelTurns: MODEL_TURNS,
      runsEach: PAIRS,
      bareMsPerTurn: median(times.bare),
      runModeMsPerTurn: median(times.run),
      breakpointsMsPerTurn: median(times.breakpoints),
      runModeRatio: runRatio,
      runModeMedianTripleRatio: median(ratios.run),
      breakpointsRatio,
      breakpointsMedianTripleRatio: median(ratios.breakpoints),
      spanStartsPerSteppedRun: (spanStarts - startsBefore) / (2 * PAIRS),
    },
    summary: `Run mode ${runRatio.toFixed(3)}×, Breakpoints ${breakpointsRatio.toFixed(3)}× (medians of the triples ${median(ratios.run).toFixed(3)}×, ${median(ratios.breakpoints).toFixed(3)}×; bare ${median(times.bare).toFixed(3)} ms, Run ${median(times.run).toFixed(3)} ms, Breakpoints ${median(times.breakpoints).toFixed(3)} ms per model turn)`,
    target: 'both ratios ≤ 1.1×',
    met: runRatio <= 1.1 && breakpointsRatio <= 1.1,
  });
} finally {
  await runner.stop();
  await receiver.close();
}
