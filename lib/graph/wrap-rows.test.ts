import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { buildRunGraph } from './build-run-graph';
import { collapseRounds } from './collapse-rounds';
import { layoutRunGraph, NODE_WIDTH, type NodePosition } from './layout-run-graph';
import { openingViewport, READABLE_ZOOM, rowWidthFor } from './opening-viewport';
import { ROW_GAP, wrapIntoRows } from './wrap-rows';
import { expectNoOverlap } from './testing/expect-no-overlap';

const laidOut = async (name: string) => {
  const graph = buildRunGraph(await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`)));
  const view = collapseRounds(graph, { expanded: new Set() });
  return layoutRunGraph({ nodes: view.nodes, edges: view.edges });
};

const right = (positions: Map<string, NodePosition>) => Math.max(...[...positions.values()].map((box) => box.x + box.width));
const left = (positions: Map<string, NodePosition>) => Math.min(...[...positions.values()].map((box) => box.x));


describe('wrapIntoRows', () => {
  it('folds the multi-round loop (11 nodes in one strip) into rows no wider than the limit, keeping reading order', async () => {
    const strip = await laidOut('multi-round');
    expect(strip.size).toBeGreaterThanOrEqual(9);
    const limit = 3 * NODE_WIDTH + 2 * 56;
    expect(right(strip) - left(strip)).toBeGreaterThan(limit);
    const rows = wrapIntoRows(strip, limit);
    expect([...rows.keys()].sort()).toEqual([...strip.keys()].sort());
    expect(right(rows) - left(rows)).toBeLessThanOrEqual(limit);
    expect(left(rows)).toBe(left(strip));
    expectNoOverlap(rows);
    // Reading order: sorted by the strip's x, the nodes go row by row, left to right in each row.
    const byStripX = [...strip.keys()].sort((a, b) => strip.get(a)!.x - strip.get(b)!.x);
    for (let index = 1; index < byStripX.length; index++) {
      const previous = rows.get(byStripX[index - 1])!;
      const current = rows.get(byStripX[index])!;
      const sameRow = current.y < previous.y + previous.height + ROW_GAP / 2 && current.y + current.height > previous.y - ROW_GAP / 2;
      expect(sameRow ? current.x > previous.x : current.y > previous.y, `${byStripX[index]} after ${byStripX[index - 1]}`).toBe(true);
    }
  });

  it('leaves a layout that already fits untouched, and keeps a parallel column whole', async () => {
    const strip = await laidOut('plain-round');
    expect(wrapIntoRows(strip, 10_000)).toEqual(strip);
    const narrow = wrapIntoRows(strip, NODE_WIDTH);
    const columns = new Map<number, number[]>();
    for (const [id, box] of strip) columns.set(box.x, [...(columns.get(box.x) ?? []), narrow.get(id)!.y]);
    const parallel = [...columns.values()].find((ys) => ys.length > 1);
    expect(parallel, 'plain-round has two tool calls side by side').toBeDefined();
    expectNoOverlap(narrow);
    expect(right(narrow) - left(narrow)).toBe(NODE_WIDTH);
  });
});

describe('openingViewport', () => {
  it('fits a small graph centred, never above zoom 1', async () => {
    const positions = await laidOut('plain-round');
    const view = openingViewport({ positions: positions.values(), pane: { width: 2400, height: 900 } });
    expect(view.fits).toBe(true);
    expect(view.zoom).toBe(1);
  });

  it('opens the multi-round loop, folded for a 1280×720 pane, whole at a readable zoom', async () => {
    const pane = { width: 720, height: 490 };
    const strip = await laidOut('multi-round');
    expect(openingViewport({ positions: strip.values(), pane }).fits).toBe(false);
    const folded = openingViewport({ positions: wrapIntoRows(strip, rowWidthFor(pane.width)).values(), pane });
    expect(folded.fits).toBe(true);
    expect(folded.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  it('pans rather than shrinks: a graph too large opens at the readable zoom with its first node at the top left', async () => {
    const strip = await laidOut('multi-round');
    const view = openingViewport({ positions: strip.values(), pane: { width: 600, height: 300 }, padding: 24 });
    expect(view.fits).toBe(false);
    expect(view.zoom).toBe(READABLE_ZOOM);
    expect(left(strip) * view.zoom + view.x).toBeCloseTo(24);
  });
});
