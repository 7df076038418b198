/**
 * The Results table of docs/performance.md, made from the committed results in bench/results/
 * (one row per benchmark: what it measures, its last result with the commit and load it was
 * measured at, its target, met or not). The table sits between two marker comments; the rest
 * of the page is left as it is. A hand-kept table drifted from the runs it quoted, and said
 * nothing of the load a number was measured under; bench/lib/performance-table.test.ts fails
 * when the page's table is not what this makes from the committed files.
 *
 * Run: `npm run bench:table` (also the last step of `npm run bench`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoopscopeError } from '../../lib/errors';
import type { BenchResult } from './bench-result';
import { BENCHMARKS } from './benchmarks';
import { readBenchResults } from './read-bench-results';

export const RESULTS_START = '<!-- bench-results:start -->';
export const RESULTS_END = '<!-- bench-results:end -->';

const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The committed results and the page they are shown on. */
export const RESULTS_DIR = path.join(PROJECT_DIR, 'bench', 'results');
export const PERFORMANCE_DOC = path.join(PROJECT_DIR, 'docs', 'performance.md');

/** Text for one table cell: a `|` would end the cell, a line break the row. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** 1.234 → "1.23": the load average as `uptime` shows it. */
const load = (value: number) => value.toFixed(2);

/** When and where the numbers were measured, or that they were copied from before this format. */
function provenance(result: BenchResult): string {
  const day = result.date.slice(0, 10);
  const commit = result.commit ? `\`${result.commit}\`${result.dirty ? ' with uncommitted changes' : ''}` : 'commit not known';
  if (!result.measured) return `not run since the JSON format (last measured ${day}, ${commit})`;
  const where = result.loadAverage && result.cpus ? `, load ${load(result.loadAverage.start[0])} → ${load(result.loadAverage.end[0])} on ${result.cpus} cores` : '';
  return `${day}, ${commit}${where}`;
}

function verdict(met: boolean | null): string {
  if (met === null) return '—';
  return met ? 'met' : '**not met**';
}

/** The benchmarks' order in `npm run bench` (bench/lib/benchmarks.ts); any other result after them, by name. */
function order(results: BenchResult[]): BenchResult[] {
  const rank = (name: string) => {
    const index = (BENCHMARKS as readonly string[]).indexOf(name);
    return index < 0 ? BENCHMARKS.length : index;
  };
  return [...results].sort((a, b) => rank(a.benchmark) - rank(b.benchmark) || a.benchmark.localeCompare(b.benchmark));
}

/** The Results table (Markdown, with a line saying where it comes from), one row per result. */
export function performanceTable(results: BenchResult[]): string {
  const rows = order(results).map((result) => {
    const name = `[\`${result.benchmark}\`](../bench/${result.benchmark}.bench.ts)`;
    return `| ${name} | ${cell(result.measures)} | ${cell(`${provenance(result)}: ${result.summary}`)} | ${cell(result.target ?? 'no target')} | ${verdict(result.met)} |`;
  });
  return [
    '<!-- Made by `npm run bench:table` from bench/results/*.json: rerun a benchmark (or edit its JSON) and the table, never the table by hand. -->',
    '',
    '| benchmark | what it measures | last result | target | met |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * `page` with the text between the Results markers replaced by `table`; everything outside
 * them is kept byte for byte.
 * @throws LoopscopeError FAILED_PRECONDITION when the page lacks the markers, has either twice,
 * or has the end before the start.
 */
export function withResultsTable({ page, table }: { page: string; table: string }): string {
  const start = page.indexOf(RESULTS_START);
  const end = page.indexOf(RESULTS_END);
  const once = (marker: string, at: number) => at >= 0 && page.indexOf(marker, at + marker.length) < 0;
  if (!once(RESULTS_START, start) || !once(RESULTS_END, end) || end < start) {
    throw new LoopscopeError('FAILED_PRECONDITION', `bench: the page needs one ${RESULTS_START} and, after it, one ${RESULTS_END} around its Results table`);
  }
  return `${page.slice(0, start + RESULTS_START.length)}\n${table}\n${page.slice(end)}`;
}

/** The text between the markers, as withResultsTable writes it (for the test that the page is current). */
export function resultsTableOf(page: string): string {
  const start = page.indexOf(RESULTS_START);
  const end = page.indexOf(RESULTS_END);
  if (start < 0 || end < start) throw new LoopscopeError('FAILED_PRECONDITION', `bench: the page has no ${RESULTS_START} … ${RESULTS_END} section`);
  return page.slice(start + RESULTS_START.length, end).replace(/^\n/, '').replace(/\n$/, '');
}

/** Rewrites docs/performance.md's table from bench/results/. @returns whether the page changed. */
export function writePerformanceTable(): boolean {
  const page = readFileSync(PERFORMANCE_DOC, 'utf8');
  const updated = withResultsTable({ page, table: performanceTable(readBenchResults(RESULTS_DIR)) });
  if (updated === page) return false;
  writeFileSync(PERFORMANCE_DOC, updated);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = writePerformanceTable();
  console.log(`${path.relative(process.cwd(), PERFORMANCE_DOC)}: the Results table ${changed ? 'is rewritten' : 'was already current'} (from ${path.relative(process.cwd(), RESULTS_DIR)}/)`);
}
