/**
 * The Results table of docs/performance.md is the one bench/lib/performance-table.ts makes from
 * the committed bench/results/*.json, and every benchmark has its result there: a hand edit of
 * the table, a result committed without `npm run bench:table`, or a benchmark that writes none
 * fails here.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BenchResult } from './bench-result';
import { BENCHMARKS } from './benchmarks';
import { PERFORMANCE_DOC, performanceTable, RESULTS_DIR, RESULTS_END, RESULTS_START, resultsTableOf, withResultsTable } from './performance-table';
import { readBenchResults } from './read-bench-results';

const BENCH_DIR = path.resolve(import.meta.dirname, '..');

const result = (overrides: Partial<BenchResult>): BenchResult => ({
  benchmark: 'graph-build',
  measured: true,
  date: '2026-12-05T10:00:00.000Z',
  commit: 'abc1234',
  dirty: false,
  node: 'v20.20.2',
  cpus: 2,
  loadAverage: { start: [1.5, 2, 3], end: [2.25, 2, 3] },
  seconds: 12,
  measures: 'loadTraceFile + buildRunGraph vs JSON.parse',
  numbers: { ratio: 1.8 },
  summary: '1.80×',
  target: 'ratio ≤ 2×',
  met: true,
  ...overrides,
});

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('docs/performance.md Results table', () => {
  it('is exactly what the generator makes from the committed bench/results/*.json', () => {
    const page = readFileSync(PERFORMANCE_DOC, 'utf8');
    expect(resultsTableOf(page), 'run `npm run bench:table` after changing bench/results/').toBe(performanceTable(readBenchResults(RESULTS_DIR)));
  });

  it('has a row for every benchmark: bench/*.bench.ts, bench/lib/benchmarks.ts and bench/results/ name the same ones', () => {
    const files = readdirSync(BENCH_DIR)
      .filter((entry) => entry.endsWith('.bench.ts'))
      .map((entry) => entry.slice(0, -'.bench.ts'.length))
      .sort();
    expect([...BENCHMARKS].sort()).toEqual(files);
    expect(readBenchResults(RESULTS_DIR).map((entry) => entry.benchmark)).toEqual(files);
  });

  it('keeps no test or helper among the benchmarks, and no benchmark where vitest collects tests', () => {
    const misplaced = readdirSync(BENCH_DIR).filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.bench.ts') && entry !== 'run-all.ts');
    expect(misplaced).toEqual([]);
    expect(readdirSync(path.join(BENCH_DIR, 'lib')).filter((entry) => entry.endsWith('.bench.ts'))).toEqual([]);
  });
});

describe('performanceTable', () => {
  it('gives each result a row: its file, what it measures, when and where it ran, its target and verdict', () => {
    const table = performanceTable([result({})]);
    expect(table.split('\n').at(-1)).toBe(
      '| [`graph-build`](../bench/graph-build.bench.ts) | loadTraceFile + buildRunGraph vs JSON.parse | 2026-12-05, `abc1234`, load 1.50 → 2.25 on 2 cores: 1.80× | ratio ≤ 2× | met |',
    );
  });

  it('says a missed target in bold, no target as such, uncommitted changes, and a result copied from before the JSON format as not run', () => {
    const rows = performanceTable([
      result({ benchmark: 'step-overhead', met: false, dirty: true }),
      result({ benchmark: 'store-checkpoint', target: null, met: null }),
      result({ benchmark: 'home-list', measured: false, date: '2026-12-01T00:00:00.000Z', commit: null, dirty: null, node: null, cpus: null, loadAverage: null, seconds: null, source: 'docs/performance.md' }),
    ])
      .split('\n')
      .slice(4);
    expect(rows[0]).toContain('| 2026-12-05, `abc1234` with uncommitted changes, load 1.50 → 2.25 on 2 cores: 1.80× | ratio ≤ 2× | **not met** |');
    expect(rows[1]).toContain('| no target | — |');
    expect(rows[2]).toContain('| not run since the JSON format (last measured 2026-12-01, commit not known): 1.80× |');
  });

  it('orders rows as `npm run bench` runs the benchmarks, others after them by name', () => {
    const names = performanceTable([result({ benchmark: 'zeta' }), result({ benchmark: 'home-list' }), result({ benchmark: 'alpha' }), result({ benchmark: 'graph-build' })])
      .split('\n')
      .slice(4)
      .map((row) => /\[`([^`]+)`\]/.exec(row)?.[1]);
    expect(names).toEqual(['graph-build', 'home-list', 'alpha', 'zeta']);
  });

  it('keeps a | or a line break in a result from breaking the table', () => {
    const row = performanceTable([result({ summary: 'a | b\nc' })]).split('\n').at(-1)!;
    expect(row).toContain('a \\| b c');
    expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
  });
});

describe('withResultsTable', () => {
  const page = `# Performance\n\nintro\n\n${RESULTS_START}\nold | table\n${RESULTS_END}\n\nthe reasoning, kept\n`;

  it('replaces only what lies between the markers', () => {
    const updated = withResultsTable({ page, table: 'new table' });
    expect(updated).toBe(`# Performance\n\nintro\n\n${RESULTS_START}\nnew table\n${RESULTS_END}\n\nthe reasoning, kept\n`);
    expect(resultsTableOf(updated)).toBe('new table');
    expect(withResultsTable({ page: updated, table: 'new table' })).toBe(updated);
  });

  it('refuses a page without both markers, with one twice, or with the end first', () => {
    for (const broken of [page.replace(RESULTS_END, ''), page.replace(RESULTS_START, ''), `${page}${RESULTS_START}\n`, `${RESULTS_END}\n${page.replace(RESULTS_END, '')}`]) {
      expect(() => withResultsTable({ page: broken, table: 'x' })).toThrow(/needs one <!-- bench-results:start --> and, after it, one <!-- bench-results:end -->/);
    }
  });
});

describe('readBenchResults', () => {
  const folderWith = (files: Record<string, string>) => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-results-test-'));
    temporary.push(directory);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(directory, name), text);
    return directory;
  };

  it('reads every result, sorted by name', () => {
    const directory = folderWith({ 'step-overhead.json': JSON.stringify(result({ benchmark: 'step-overhead' })), 'graph-build.json': JSON.stringify(result({})), 'notes.txt': 'not a result' });
    expect(readBenchResults(directory).map((entry) => entry.benchmark)).toEqual(['graph-build', 'step-overhead']);
  });

  it('names the file and the problem for a file that is not JSON, not a result, or the result of another benchmark', () => {
    expect(() => readBenchResults(folderWith({ 'graph-build.json': '{"benchmark":' }))).toThrow(/graph-build\.json is not JSON/);
    const { target: _target, ...withoutTarget } = result({});
    expect(() => readBenchResults(folderWith({ 'graph-build.json': JSON.stringify(withoutTarget) }))).toThrow(/graph-build\.json is not a benchmark result: target:/);
    expect(() => readBenchResults(folderWith({ 'graph-build.json': JSON.stringify(result({ met: null })) }))).toThrow(/met: met is null exactly when target is null/);
    expect(() => readBenchResults(folderWith({ 'graph-build.json': JSON.stringify(result({ measured: false })) }))).toThrow(/source: a hand-written result \(measured: false\) says where its numbers come from/);
    expect(() => readBenchResults(folderWith({ 'home-list.json': JSON.stringify(result({})) }))).toThrow(/home-list\.json holds the result of graph-build, not of home-list/);
  });
});
