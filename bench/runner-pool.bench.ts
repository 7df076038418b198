/**
 * Benchmark (not a test): what one runner of the pool costs. Starts a pool of one runner
 * (the project's tools/) several times and prints the cold start (spawn → ready: genkit,
 * the OTel SDK and tools/ loaded) and the runner's resident memory, idle and after a run.
 * The pool keeps up to two idle runners warm and runs at most LOOPSCOPE_MAX_RUNNERS (4).
 *
 * Run: `node --import tsx bench/runner-pool.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startCaptureHarness } from '../lib/server/testing/capture-harness';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const STARTS = Number(process.env.BENCH_STARTS ?? 5);

function residentMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((candidate) => candidate.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

const result = startBenchResult('runner-pool');
const coldStarts: number[] = [];
const idle: number[] = [];
const afterRun: number[] = [];
for (let index = 0; index < STARTS; index++) {
  const started = performance.now();
  const harness = await startCaptureHarness({ maxRunners: 1 });
  try {
    if (!(await harness.supervisor.whenReady(60_000))) throw new Error('the runner did not start');
    coldStarts.push(performance.now() - started);
    const pid = harness.supervisor.status.pid as number;
    idle.push(residentMb(pid));
    const result = await harness.supervisor.generate({ runId: `bench-${index}`, scenario: 'multi-round-research' });
    if (result.failure) throw new Error(result.failure.message);
    afterRun.push(residentMb(pid));
  } finally {
    await harness.close();
  }
}
console.log(`runner pool: ${STARTS} cold starts of one runner (tools/ of this project)`);
console.log(`  cold start (spawn → ready)   : median ${median(coldStarts).toFixed(0)} ms, min ${Math.min(...coldStarts).toFixed(0)}, max ${Math.max(...coldStarts).toFixed(0)}`);
console.log(`  resident memory, idle        : median ${median(idle).toFixed(0)} MB`);
console.log(`  resident memory, after a run : median ${median(afterRun).toFixed(0)} MB`);
console.log(`  a full pool (4 runners)      : ≈ ${(4 * median(afterRun)).toFixed(0)} MB`);
result.write({
  measures: `what one runner of the pool costs: ${STARTS} cold starts of a pool of one runner (tools/ of this project), spawn → ready, and the runner's resident memory idle and after a run`,
  numbers: {
    starts: STARTS,
    coldStartMs: { median: median(coldStarts), min: Math.min(...coldStarts), max: Math.max(...coldStarts) },
    residentMbIdle: median(idle),
    residentMbAfterRun: median(afterRun),
    fullPoolMb: 4 * median(afterRun),
  },
  summary: `cold start median ${median(coldStarts).toFixed(0)} ms (${Math.min(...coldStarts).toFixed(0)}–${Math.max(...coldStarts).toFixed(0)}); resident memory ${median(idle).toFixed(0)} MB idle, ${median(afterRun).toFixed(0)} MB after a run (a full pool of 4 ≈ ${(4 * median(afterRun)).toFixed(0)} MB)`,
  target: null,
  met: null,
});
