/**
 * The library entry (package.json `exports["."]` → lib/index.ts in the clone, through the
 * `loopscope-source` condition; dist/lib/index.js in the package, which e2e/package.spec.ts
 * imports in a developer's project) imported by the package's name, as docs/architecture.md's
 * "Contracts" promise: `loadTraceFile(path) → Promise<Span[]>` and `buildRunGraph(spans) → RunGraph`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph, loadTraceFile, type RunGraph, type Span } from 'loopscope';

const PROJECT_DIR = path.resolve(import.meta.dirname, '..');
const TRACE = 'traces/parallel-pending-output.json';

describe("import … from 'loopscope'", () => {
  it('loads a trace file and builds its graph', async () => {
    const spans: Span[] = await loadTraceFile(path.join(PROJECT_DIR, TRACE));
    expect(spans).toHaveLength(8);
    const graph: RunGraph = buildRunGraph(spans);
    expect(graph.summary).toStrictEqual({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' });
    expect(Object.keys(graph).sort()).toEqual(['edges', 'generates', 'nodes', 'summary']);
  });

  it('resolves through package.json exports in plain Node too (in the clone: tsx and the loopscope-source condition)', () => {
    const script = `import { loadTraceFile, buildRunGraph } from 'loopscope';
const graph = buildRunGraph(await loadTraceFile(${JSON.stringify(TRACE)}));
process.stdout.write(JSON.stringify(graph.summary));`;
    const result = spawnSync(process.execPath, ['--conditions=loopscope-source', '--import', 'tsx', '--input-type=module', '--eval', script], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ traces: 2, generates: 2, interrupts: 1 });
  });
});
