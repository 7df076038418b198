/**
 * `npm run bench:ab -- <before> <after> [--rounds N] <benchmark>…`: the same benchmarks at two
 * commits, side by side in one run — each commit checked out in a worktree of its own, built
 * where a benchmark needs a production server, then the rounds alternate (before, after; after,
 * before; …) so neither side gets a quieter machine. Each run writes its result into a folder of
 * its own (BENCH_RESULTS_DIR); the comparison, every round's numbers of both sides, is written to
 * `bench/results/ab/<before>..<after>.<benchmark>+….json` (named by its benchmarks too, so an A/B of
 * other benchmarks between the same commits keeps its own file) and printed.
 *
 * The worktrees take this checkout's node_modules as hard links (`cp -al`: seconds, no disk; a
 * symlink would put the packages outside the project, which Next's build refuses) when both
 * commits lock the same packages; otherwise each installs its own (`npm ci`, minutes).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from './benchmarks';
import { BenchResultSchema, type BenchResult } from './bench-result';

const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The benchmarks that start a production server: each side needs `next build` first. */
const NEEDS_BUILD = new Set(['capture-overhead', 'ai-sdk-capture-overhead', 'graph-browser', 'home-list', 'ingest-throughput']);

interface Side {
  name: 'before' | 'after';
  ref: string;
  commit: string;
  directory: string;
}

function fail(message: string): never {
  console.error(`bench:ab: ${message}`);
  process.exit(2);
}

const git = (args: string[], cwd = PROJECT_DIR) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function parseArguments(argv: string[]): { before: string; after: string; rounds: number; benchmarks: string[] } {
  const positional: string[] = [];
  let rounds = 3;
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--rounds') {
      rounds = Number(argv[++index]);
      if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds takes a whole number ≥ 1, not ${argv[index]}`);
    } else positional.push(argv[index]);
  }
  const [before, after, ...benchmarks] = positional;
  if (!before || !after || benchmarks.length === 0) fail('usage: npm run bench:ab -- <before-ref> <after-ref> [--rounds N] <benchmark>…');
  const unknown = benchmarks.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
  if (unknown.length > 0) fail(`no benchmark ${unknown.join(', ')}; there are ${BENCHMARKS.join(', ')}`);
  return { before, after, rounds, benchmarks };
}

/** A worktree of `ref` in `directory`, with node_modules (shared when the lock file is the same) and, when asked, a production build. */
function prepare(options: { side: Side; build: boolean }): void {
  const { side } = options;
  console.log(`bench:ab: ${side.name} = ${side.ref} (${side.commit}) in ${side.directory}`);
  git(['worktree', 'add', '--detach', side.directory, side.commit]);
  const lockHere = readFileSync(path.join(PROJECT_DIR, 'package-lock.json'), 'utf8');
  const lockThere = readFileSync(path.join(side.directory, 'package-lock.json'), 'utf8');
  if (lockHere === lockThere && existsSync(path.join(PROJECT_DIR, 'node_modules'))) run({ what: `node_modules as hard links (${side.name})`, command: 'cp', args: ['-al', path.join(PROJECT_DIR, 'node_modules'), path.join(side.directory, 'node_modules')], cwd: side.directory });
  else run({ what: `npm ci (${side.name})`, command: 'npm', args: ['ci', '--no-audit', '--no-fund'], cwd: side.directory });
  if (options.build) run({ what: `next build (${side.name})`, command: 'npx', args: ['next', 'build'], cwd: side.directory });
}

function run(options: { what: string; command: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv }): void {
  const started = Date.now();
  console.log(`bench:ab: ${options.what}…`);
  const result = spawnSync(options.command, options.args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail(`${options.what} failed (${result.signal ?? `exit ${result.status}`})`);
  console.log(`bench:ab: ${options.what} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const { before, after, rounds, benchmarks } = parseArguments(process.argv.slice(2));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'loopscope-ab-'));
const sides: Side[] = (
  [
    ['before', before],
    ['after', after],
  ] as const
).map(([name, ref]) => {
  let commit: string;
  try {
    commit = git(['rev-parse', '--short', `${ref}^{commit}`]);
  } catch {
    fail(`${ref} names no commit of this repository`);
  }
  return { name, ref, commit, directory: path.join(scratch, name) };
});
const missing = sides.flatMap((side) => benchmarks.filter((name) => spawnSync('git', ['cat-file', '-e', `${side.commit}:bench/${name}.bench.ts`], { cwd: PROJECT_DIR }).status !== 0).map((name) => `${name} at ${side.ref}`));
if (missing.length > 0) fail(`no bench/<name>.bench.ts for ${missing.join(', ')}`);

const results: Record<string, Record<Side['name'], BenchResult[]>> = {};
try {
  for (const side of sides) prepare({ side, build: benchmarks.some((name) => NEEDS_BUILD.has(name)) });
  for (const benchmark of benchmarks) {
    results[benchmark] = { before: [], after: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so a machine that warms up or gets busier favours neither.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const resultsDir = path.join(scratch, 'results', `${side.name}-${round}`);
        run({ what: `${benchmark}, round ${round + 1}/${rounds}, ${side.name}`, command: process.execPath, args: ['--import', 'tsx', path.join('bench', `${benchmark}.bench.ts`)], cwd: side.directory, env: { ...process.env, BENCH_RESULTS_DIR: resultsDir } });
        results[benchmark][side.name].push(BenchResultSchema.parse(JSON.parse(readFileSync(path.join(resultsDir, `${benchmark}.json`), 'utf8'))));
      }
    }
  }
} finally {
  for (const side of sides) spawnSync('git', ['worktree', 'remove', '--force', side.directory], { cwd: PROJECT_DIR });
  rmSync(scratch, { recursive: true, force: true });
}

console.log('');
for (const benchmark of benchmarks) {
  console.log(`${benchmark}:`);
  for (const side of sides) for (const result of results[benchmark][side.name]) console.log(`  ${side.name.padEnd(6)} ${side.commit}  ${result.summary}`);
}
const directory = path.join(PROJECT_DIR, 'bench', 'results', 'ab');
mkdirSync(directory, { recursive: true });
const file = path.join(directory, `${sides[0].commit}..${sides[1].commit}.${benchmarks.join('+')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ before: { ref: before, commit: sides[0].commit }, after: { ref: after, commit: sides[1].commit }, rounds, date: new Date().toISOString(), benchmarks: results }, null, 1)}\n`,
);
console.log(`bench:ab: written to ${path.relative(process.cwd(), file)}`);
