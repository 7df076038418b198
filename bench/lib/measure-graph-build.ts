/**
 * The graph-build benchmarks' measure: a bare `JSON.parse` of a file and `loadTraceFile` +
 * `buildRunGraph` of the same file, alternating round by round so neither gets a warmer
 * machine; the first two rounds only warm up the JIT (JSON.parse is native and needs none) and
 * are not counted.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildRunGraph } from '../../lib/graph/build-run-graph';
import type { RunGraph } from '../../lib/graph/run-graph';
import { loadTraceFile } from '../../lib/store/load-trace-file';
import { median } from './bench-stats';

/** Medians of `rounds` counted rounds of each side, and the graph the last round built. */
export async function measureGraphBuild(file: string, rounds: number): Promise<{ parseMs: number; buildMs: number; graph: RunGraph }> {
  const bare: number[] = [];
  const full: number[] = [];
  let graph: RunGraph | undefined;
  for (let round = -2; round < rounds; round++) {
    let start = performance.now();
    JSON.parse(readFileSync(file, 'utf8'));
    if (round >= 0) bare.push(performance.now() - start);
    start = performance.now();
    graph = buildRunGraph(await loadTraceFile(file));
    if (round >= 0) full.push(performance.now() - start);
  }
  return { parseMs: median(bare), buildMs: median(full), graph: graph! };
}
