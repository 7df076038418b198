import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { buildRunGraph } from './build-run-graph';
import { collapseRounds, type ViewNode } from './collapse-rounds';
import { layoutRunGraph, NODE_HEIGHT, NODE_WIDTH, type NodePosition } from './layout-run-graph';
import type { GraphEdge, RunGraph } from './run-graph';
import { expectNoOverlap } from './testing/expect-no-overlap';

const fixture = async (name: string) => buildRunGraph(await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`)));

/** What the page passes as layout-only pairs: each interrupt (or parked call) before the resume generate that answers it. */
const answeredBefore = (graph: RunGraph) =>
  graph.generates.flatMap((generate) => (generate.resume?.resolutions ?? []).flatMap((resolution) => (resolution.answersToolCallId ? [{ source: resolution.answersToolCallId, target: generate.id }] : [])));

const at = (positions: Map<string, NodePosition>, id: string) => {
  const position = positions.get(id);
  expect(position, `position of ${id}`).toBeDefined();
  return position!;
};


const FIXTURES = ['plain-round', 'multi-round', 'pending-output', 'interrupt-restart', 'unanswered-interrupt', 'max-turns', 'identical-conversations', 'flow-two-generates'];

describe('layoutRunGraph', () => {
  it('places every node, once, at its size, without overlaps', async () => {
    for (const name of FIXTURES) {
      const graph = await fixture(name);
      const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly: answeredBefore(graph) });
      expect([...positions.keys()].sort(), name).toEqual(graph.nodes.map((node) => node.id).sort());
      for (const position of positions.values()) expect(position, name).toMatchObject({ width: NODE_WIDTH, height: NODE_HEIGHT });
      expectNoOverlap(positions);
    }
  });

  it('gives top-left corners (what React Flow wants), not dagre’s centres', async () => {
    const graph = await fixture('plain-round');
    const positions = [...layoutRunGraph({ nodes: graph.nodes, edges: graph.edges }).values()];
    // A centre can never be closer to the canvas edge than half a node.
    expect(Math.min(...positions.map((position) => position.x))).toBeLessThan(NODE_WIDTH / 2);
    expect(Math.min(...positions.map((position) => position.y))).toBeLessThan(NODE_HEIGHT / 2);
    expect(positions.every((position) => position.x >= 0 && position.y >= 0)).toBe(true);
  });

  it('is deterministic and keeps nothing between calls', async () => {
    const graph = await fixture('pending-output');
    const first = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly: answeredBefore(graph) });
    // Other calls in between, one of them with the same nodes and every edge reversed: a layout
    // that kept its dagre graph would now hold both directions and draw some edges backwards.
    const other = await fixture('multi-round');
    layoutRunGraph({ nodes: other.nodes, edges: other.edges });
    layoutRunGraph({ nodes: graph.nodes, edges: graph.edges.map((edge) => ({ ...edge, source: edge.target, target: edge.source })) });
    const second = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly: answeredBefore(graph) });
    expect(second).toEqual(first);
    expect([...second.keys()].some((id) => other.nodes.some((node) => node.id === id))).toBe(false);
  });

  it('runs left to right: every flow edge points right, past the whole source node', async () => {
    for (const name of FIXTURES) {
      const graph = await fixture(name);
      const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly: answeredBefore(graph) });
      for (const edge of graph.edges.filter((candidate) => candidate.kind === 'flow')) {
        expect(at(positions, edge.target).x, `${name} ${edge.id}`).toBeGreaterThanOrEqual(at(positions, edge.source).x + NODE_WIDTH);
      }
    }
  });

  it('rounds go left to right: each turn of a 4-round loop starts right of the one before', async () => {
    const graph = await fixture('multi-round');
    const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges });
    const modelX = graph.generates[0].turns.map((turn) => at(positions, turn.model!.id).x);
    expect(modelX).toHaveLength(5);
    expect([...modelX].sort((a, b) => a - b)).toEqual(modelX);
    expect(new Set(modelX).size).toBe(5);
  });

  it('parallel tool calls stack vertically between their model call and the next', async () => {
    const graph = await fixture('plain-round');
    const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges });
    const [first, second] = graph.generates[0].turns;
    const [weather, time] = first.toolCalls.map((call) => at(positions, call.id));
    expect(weather.x).toBe(time.x);
    expect(Math.abs(weather.y - time.y)).toBeGreaterThanOrEqual(NODE_HEIGHT);
    expect(weather.x).toBeGreaterThan(at(positions, first.model!.id).x);
    expect(weather.x).toBeLessThan(at(positions, second.model!.id).x);
  });

  it('answer edges put each resume part right of the interrupt it answers, across traces', async () => {
    for (const name of ['interrupt-restart', 'pending-output', 'unanswered-interrupt', 'identical-conversations']) {
      const graph = await fixture(name);
      const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges });
      const answers = graph.edges.filter((edge) => edge.kind === 'answer');
      expect(answers.length, name).toBeGreaterThan(0);
      for (const edge of answers) expect(at(positions, edge.target).x, `${name} ${edge.id}`).toBeGreaterThan(at(positions, edge.source).x);
    }
  });

  it('layout-only pairs rank the resume generate itself after the interrupt it answers, without being drawn', async () => {
    const graph = await fixture('interrupt-restart');
    const [original, resume] = graph.generates;
    const interrupt = original.turns[0].toolCalls[0].id;
    const layoutOnly = answeredBefore(graph);
    expect(layoutOnly).toEqual([{ source: interrupt, target: resume.id }]);
    const positions = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly });
    expect(at(positions, resume.id).x).toBeGreaterThanOrEqual(at(positions, interrupt).x + NODE_WIDTH);
    // Only positions come back: the pair adds no node.
    expect(positions.size).toBe(graph.nodes.length);
  });

  it('ignores edges and layout-only pairs whose ends are not drawn (hidden by a ghost, folded into a summary)', async () => {
    const graph = await fixture('pending-output');
    const expected = layoutRunGraph({ nodes: graph.nodes, edges: graph.edges, layoutOnly: answeredBefore(graph) });
    const dangling: GraphEdge[] = [
      { id: 'a', source: 'gone', target: graph.nodes[0].id, kind: 'flow' },
      { id: 'b', source: graph.nodes[1].id, target: 'gone too', kind: 'answer' },
      { id: 'c', source: 'nowhere', target: 'nothing', kind: 'flow' },
    ];
    const positions = layoutRunGraph({
      nodes: graph.nodes,
      edges: [...graph.edges, ...dangling],
      layoutOnly: [...answeredBefore(graph), { source: 'gone', target: graph.nodes[0].id }, { source: graph.nodes[2].id, target: 'x' }],
    });
    expect(positions).toEqual(expected);
    expect(positions.has('gone')).toBe(false);
  });

  it('lays out what is drawn: folded summaries and ghosts are placed like any node', async () => {
    const graph = await fixture('multi-round');
    const view = collapseRounds(graph, { threshold: 2, keep: 1 });
    const ghost: ViewNode = { id: 'ghost:p', kind: 'ghost', generateId: graph.generates[0].id, traceId: graph.generates[0].traceId, label: 'paused', status: '', tone: 'interrupted' };
    const last = graph.generates[0].turns[4].model!.id;
    const positions = layoutRunGraph({ nodes: [...view.nodes, ghost], edges: [...view.edges, { id: `${last}->ghost:p`, source: last, target: 'ghost:p', kind: 'flow' }] });
    expect(positions.size).toBe(view.nodes.length + 1);
    expectNoOverlap(positions);
    const summary = view.nodes.find((node) => node.kind === 'collapsed-rounds')!;
    expect(at(positions, summary.id).x).toBeGreaterThan(at(positions, graph.generates[0].turns[0].model!.id).x);
    expect(at(positions, 'ghost:p').x).toBeGreaterThan(at(positions, last).x);
  });

  it('an empty graph has no positions', () => {
    expect(layoutRunGraph({ nodes: [], edges: [] }).size).toBe(0);
  });
});
