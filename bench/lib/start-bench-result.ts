/**
 * Every benchmark records its result the same way: `startBenchResult(name)` first (the load
 * average and the time as the run begins), `write({ … })` at the end with the numbers it
 * printed. The file, `bench/results/<name>.json`, says which commit, Node and machine load the
 * numbers came from: on this shared 2-core VM the load explains more of a swing than any change.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoopscopeError } from '../../lib/errors';
import { BenchmarkNameSchema, BenchResultSchema, type BenchResult, type MeasuredResult } from './bench-result';

/** The checkout this file is in (bench/lib/ → the project folder). */
const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where results go: `bench/results/` of this checkout, unless BENCH_RESULTS_DIR names another folder (an A/B run from a second clone, say). */
export function benchResultsDir(): string {
  return process.env.BENCH_RESULTS_DIR ? path.resolve(process.env.BENCH_RESULTS_DIR) : path.join(PROJECT_DIR, 'bench', 'results');
}

/**
 * The commit a run measures, and whether the checkout differs from it in anything that runs.
 * bench/results/ and docs/ are left out: `npm run bench` writes a result after each benchmark
 * and the table at its end, and the next run would otherwise call those a change. Untracked
 * files count (a new benchmark not yet committed is a change). Null where git or the checkout
 * is missing.
 */
export function gitState(projectDir: string): { commit: string | null; dirty: boolean | null } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: projectDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git(['rev-parse', '--short', 'HEAD']);
    const changes = git(['status', '--porcelain', '--', '.', ':(exclude)bench/results', ':(exclude)docs']);
    return { commit, dirty: changes.length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** Keeps a measured number to four significant digits: the file stays readable, and no benchmark's swing is finer than that. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) || !Number.isFinite(value) ? value : Number(value.toPrecision(4));
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rounded(inner)]));
  return value;
}

export interface BenchResultRecorder {
  /**
   * Writes `<resultsDir>/<benchmark>.json` and says so on stdout.
   * @returns the file's path.
   * @throws LoopscopeError INVALID_ARGUMENT naming what the result lacks (a number that is not finite, a target without `met`).
   */
  write: (result: MeasuredResult) => string;
}

/**
 * Starts recording a run of `benchmark` (its name: `bench/<benchmark>.bench.ts`): call it before
 * the measuring, `write` after. `resultsDir` and `projectDir` are for tests.
 */
export function startBenchResult(benchmark: string, options: { resultsDir?: string; projectDir?: string } = {}): BenchResultRecorder {
  BenchmarkNameSchema.parse(benchmark);
  const startedAt = new Date();
  const startLoad = os.loadavg();
  return {
    write(result) {
      const record: BenchResult = {
        benchmark,
        measured: true,
        date: startedAt.toISOString(),
        ...gitState(options.projectDir ?? PROJECT_DIR),
        node: process.version,
        cpus: os.cpus().length,
        loadAverage: { start: rounded(startLoad) as [number, number, number], end: rounded(os.loadavg()) as [number, number, number] },
        seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
        measures: result.measures,
        numbers: rounded(result.numbers) as BenchResult['numbers'],
        summary: result.summary,
        target: result.target,
        met: result.met,
      };
      const checked = BenchResultSchema.safeParse(record);
      if (!checked.success) {
        throw new LoopscopeError('INVALID_ARGUMENT', `bench: the result of ${benchmark} is not written: ${checked.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ')}`, { cause: checked.error });
      }
      const directory = options.resultsDir ?? benchResultsDir();
      mkdirSync(directory, { recursive: true });
      const file = path.join(directory, `${benchmark}.json`);
      writeFileSync(file, `${JSON.stringify(checked.data, null, 2)}\n`);
      const shown = path.relative(process.cwd(), file);
      console.log(`  result written to ${shown.startsWith('..') ? file : shown}`);
      return file;
    },
  };
}
