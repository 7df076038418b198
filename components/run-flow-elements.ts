/**
 * The run graph's view (nodes after collapsing and ghosts) as React Flow nodes and edges:
 * positions from the layout, known sizes and handle places, the answer edges' dashes and words.
 * Pure; the canvas (run-graph-view.tsx) only draws them and handles the viewport and keys.
 */
import { MarkerType, Position, type Edge } from '@xyflow/react';
import type { RunGraphView } from '@/lib/graph/collapse-rounds';
import { NODE_HEIGHT, NODE_WIDTH } from '@/lib/graph/layout-run-graph';
import type { RunGraph } from '@/lib/graph/run-graph';
import type { RunFlowNode } from './graph-nodes';

export const TONE_COLOURS: Record<string, string> = {
  ok: '#3fb98a',
  error: '#ff6b6b',
  interrupted: '#f5b942',
  running: '#7aa2ff',
  answered: '#c792ea',
  neutral: '#9aa1b5',
};

const HANDLE_SIZE = 6;
const STATIC_HANDLES = [
  { type: 'target' as const, position: Position.Left, x: -HANDLE_SIZE / 2, y: NODE_HEIGHT / 2 - HANDLE_SIZE / 2, width: HANDLE_SIZE, height: HANDLE_SIZE },
  { type: 'source' as const, position: Position.Right, x: NODE_WIDTH - HANDLE_SIZE / 2, y: NODE_HEIGHT / 2 - HANDLE_SIZE / 2, width: HANDLE_SIZE, height: HANDLE_SIZE },
];


/** Layout-only edges: a resume generate is drawn after the interrupts it answers, even across traces. */
export function answerLayoutEdges(graph: RunGraph): { source: string; target: string }[] {
  return graph.generates.flatMap((generate) =>
    (generate.resume?.resolutions ?? []).flatMap((resolution) => (resolution.answersToolCallId ? [{ source: resolution.answersToolCallId, target: generate.id }] : [])),
  );
}

/** React Flow nodes of the view, at their laid-out positions. */
export function flowNodes(options: {
  view: Pick<RunGraphView, 'nodes'>;
  positions: ReadonlyMap<string, { x: number; y: number }>;
  selectedNodeId?: string;
  markedNodeIds?: ReadonlySet<string>;
}): RunFlowNode[] {
  const { view, positions, selectedNodeId, markedNodeIds } = options;
  return view.nodes.map((node) => ({
    id: node.id,
    type: node.kind,
    position: positions.get(node.id) ?? { x: 0, y: 0 },
    data: { view: node, marked: markedNodeIds?.has(node.id) ?? false },
    selected: node.id === selectedNodeId,
    draggable: false,
    connectable: false,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    // Known sizes and handle places: React Flow fits and connects nodes without waiting to
    // measure the DOM. Each live update passes new node objects, and React Flow resets what
    // it measured for them — nodes of unchanged size are not measured again, so without
    // these the fit ignored them and their edges went undrawn.
    measured: { width: NODE_WIDTH, height: NODE_HEIGHT },
    handles: STATIC_HANDLES,
  }));
}

/** "could also answer generate 2, a generate of trace 1f2e… and 4 more": what else a guessed answer could answer. */
function alternativesText(edge: { couldAlsoAnswer?: string[]; alternatives?: number }, generateLabels: ReadonlyMap<string, string>): string {
  const named = (edge.couldAlsoAnswer ?? []).map((id) => generateLabels.get(id) ?? `a generate of trace ${id.slice(0, 8)}`);
  const more = (edge.alternatives ?? named.length) - named.length;
  return `could also answer ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** React Flow edges of the view: solid flow edges, dashed answer edges (dotted, with their alternatives, when the answer is a guess). */
export function flowEdges(options: { view: Pick<RunGraphView, 'edges'>; graph: RunGraph }): Edge[] {
  const generateLabels = new Map(options.graph.nodes.filter((node) => node.kind === 'generate').map((node) => [node.id, node.label]));
  return options.view.edges.map((edge) =>
    edge.kind === 'answer'
      ? {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          type: 'answer',
          animated: true,
          style: { stroke: TONE_COLOURS.interrupted, strokeDasharray: edge.ambiguous ? '2 4' : '6 4', strokeWidth: 2 },
          labelStyle: { fill: TONE_COLOURS.interrupted, fontSize: 11 },
          labelBgStyle: { fill: '#171a23' },
          markerEnd: { type: MarkerType.ArrowClosed, color: TONE_COLOURS.interrupted },
          // Content could not decide: the label says which other interrupts this resume could answer.
          data: { kind: 'answer', ambiguous: edge.ambiguous ?? false, words: edge.ambiguous ? `answered by? ${alternativesText(edge, generateLabels)}` : 'answered by' },
        }
      : {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          style: { stroke: '#4a5168', strokeWidth: 1.5 },
          markerEnd: { type: MarkerType.ArrowClosed, color: '#4a5168' },
          data: { kind: 'flow' },
        },
  );
}
