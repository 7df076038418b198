/**
 * `npm run bench`: every benchmark (bench/lib/benchmarks.ts) one after another, each in a node
 * process of its own as before (one's JIT, heap and tracer provider never meet the next), its
 * output printed as it comes; then the Results table of docs/performance.md is made again from
 * bench/results/. Names as arguments run only those: `npm run bench -- graph-build store-scale`.
 *
 * A benchmark that fails (one that needs `npx next build` or the `go` toolchain, on a machine
 * without them) does not stop the others: their results are still written and tabled, and the
 * command fails at the end, naming the ones that did.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from './lib/benchmarks';
import { writePerformanceTable } from './lib/performance-table';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`bench: no benchmark ${unknown.join(', ')}; there are ${BENCHMARKS.join(', ')}`);
  process.exit(2);
}
const failed: string[] = [];
for (const name of asked.length > 0 ? asked : BENCHMARKS) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, `${name}.bench.ts`)], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(`${name} (${run.signal ?? `exit ${run.status}`})`);
}
const changed = writePerformanceTable();
console.log('');
console.log(`docs/performance.md: the Results table ${changed ? 'is rewritten' : 'was already current'} from bench/results/`);
if (failed.length > 0) {
  console.error(`bench: ${failed.length} benchmark(s) failed: ${failed.join(', ')}`);
  process.exit(1);
}
