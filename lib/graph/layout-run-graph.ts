import dagre from '@dagrejs/dagre';
import type { GraphEdge } from './run-graph';
import type { ViewNode } from './collapse-rounds';

export const NODE_WIDTH = 230;
export const NODE_HEIGHT = 74;

export interface NodePosition {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Left-to-right layout of the drawn graph: turns flow left to right, parallel tool calls
 * stack vertically between their model call and the next. Pure; a fresh dagre graph per call.
 */
export function layoutRunGraph({
  nodes,
  edges,
  layoutOnly = [],
}: {
  nodes: readonly ViewNode[];
  edges: readonly GraphEdge[];
  /** Pairs that only steer the layout (not drawn): e.g. an interrupt before the resume generate that answers it. */
  layoutOnly?: readonly { source: string; target: string }[];
}): Map<string, NodePosition> {
  const graph = new dagre.graphlib.Graph({ multigraph: false });
  graph.setGraph({ rankdir: 'LR', nodesep: 22, ranksep: 56, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const ids = new Set(nodes.map((node) => node.id));
  for (const edge of edges) {
    if (!ids.has(edge.source) || !ids.has(edge.target)) continue;
    // Answer edges rank the resume after its interrupt but weigh less than the flow.
    graph.setEdge(edge.source, edge.target, { weight: edge.kind === 'answer' ? 1 : 4, minlen: 1 });
  }
  for (const edge of layoutOnly) {
    if (ids.has(edge.source) && ids.has(edge.target) && !graph.hasEdge(edge.source, edge.target)) graph.setEdge(edge.source, edge.target, { weight: 1, minlen: 1 });
  }
  dagre.layout(graph);
  const positions = new Map<string, NodePosition>();
  for (const node of nodes) {
    const laid = graph.node(node.id) as { x: number; y: number } | undefined;
    if (!laid) continue;
    // dagre gives centres; React Flow wants top-left corners.
    positions.set(node.id, { x: laid.x - NODE_WIDTH / 2, y: laid.y - NODE_HEIGHT / 2, width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  return positions;
}
