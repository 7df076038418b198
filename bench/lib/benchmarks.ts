/**
 * Every benchmark, in the order `npm run bench` runs them and the Results table of
 * docs/performance.md lists them: the ones that need nothing but this checkout first, then
 * those that need the `go` toolchain, then those that start a production server (`npx next
 * build` first). A benchmark is `bench/<name>.bench.ts`; its result `bench/results/<name>.json`.
 * bench/lib/performance-table.test.ts checks that this list and the files agree.
 */
export const BENCHMARKS = [
  'graph-build',
  'framework-graph-build',
  'step-overhead',
  'ai-sdk-step-overhead',
  'span-outbox-overhead',
  'replay-vs-run',
  'store-scale',
  'store-checkpoint',
  'runner-pool',
  'runner-process-overhead',
  'go-step-overhead',
  'go-capture-overhead',
  'capture-overhead',
  'ai-sdk-capture-overhead',
  'ingest-throughput',
  'graph-browser',
  'home-list',
  'package',
] as const;

export type BenchmarkName = (typeof BENCHMARKS)[number];
