'use client';

import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, type Edge } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { collapseRounds } from '@/lib/graph/collapse-rounds';
import { layoutRunGraph, NODE_HEIGHT, NODE_WIDTH } from '@/lib/graph/layout-run-graph';
import { ghostNodes } from '@/lib/graph/ghost-nodes';
import { openingViewport, rowWidthFor } from '@/lib/graph/opening-viewport';
import { wrapIntoRows } from '@/lib/graph/wrap-rows';
import type { RunGraph } from '@/lib/graph/run-graph';
import type { PauseInfo } from '@/lib/contract/pause';
import { GraphLegend } from './graph-legend';
import { edgeTypes } from './answer-edge';
import { nodeTypes, type RunFlowNode } from './graph-nodes';
import { answerLayoutEdges, flowEdges, flowNodes, TONE_COLOURS } from './run-flow-elements';

/** The pane's size, measured (0 × 0 until the first measurement). Widths are rounded so a resize by a few pixels does not lay the graph out again. */
function usePaneSize() {
  const [size, setSize] = useState({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLDivElement | null) => {
    observer.current?.disconnect();
    if (!element) return;
    const measure = () => {
      const width = Math.round(element.clientWidth / 40) * 40;
      const height = Math.round(element.clientHeight / 20) * 20;
      setSize((current) => (current.width === width && current.height === height ? current : { width, height }));
    };
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    measure();
  }, []);
  return { ref, size };
}

interface GraphViewProps {
  graph: RunGraph;
  selectedNodeId?: string;
  onSelect: (nodeId: string) => void;
  /** Where a step-by-step run is paused: drawn as ghost nodes. */
  pauses?: PauseInfo[];
  /** Nodes to mark (a replay's divergence), drawn with a red ring. */
  markedNodeIds?: ReadonlySet<string>;
  /** Shown instead of the canvas when there is nothing to draw (why, and what to do). */
  empty?: ReactNode;
}

function GraphCanvas(props: GraphViewProps) {
  const { graph, selectedNodeId, onSelect, pauses, markedNodeIds } = props;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const flow = useReactFlow();
  const view = useMemo(() => {
    const collapsed = collapseRounds(graph, { expanded });
    if (!pauses || pauses.length === 0) return collapsed;
    const ghosts = ghostNodes(graph, pauses);
    return {
      ...collapsed,
      nodes: [...collapsed.nodes.filter((node) => !ghosts.hidden.has(node.id)), ...ghosts.nodes],
      edges: [...collapsed.edges.filter((edge) => !ghosts.hidden.has(edge.source) && !ghosts.hidden.has(edge.target)), ...ghosts.edges],
    };
  }, [graph, expanded, pauses]);
  const pane = usePaneSize();
  const laidOut = useMemo(() => layoutRunGraph({ nodes: view.nodes, edges: view.edges, layoutOnly: answerLayoutEdges(graph) }), [view, graph]);
  // A long loop is folded into rows that fit the pane at a readable zoom (lines of text, not one strip).
  const positions = useMemo(() => (pane.size.width > 0 ? wrapIntoRows(laidOut, rowWidthFor(pane.size.width)) : laidOut), [laidOut, pane.size.width]);
  const opening = useMemo(() => openingViewport({ positions: positions.values(), pane: pane.size }), [positions, pane.size]);
  const nodes: RunFlowNode[] = useMemo(() => flowNodes({ view, positions, selectedNodeId, markedNodeIds }), [view, positions, selectedNodeId, markedNodeIds]);
  const edges: Edge[] = useMemo(() => flowEdges({ view, graph }), [view, graph]);

  // Reading order for the keyboard: left to right, then top to bottom, as laid out before folding into rows.
  const order = useMemo(
    () => [...view.nodes].sort((a, b) => (laidOut.get(a.id)?.x ?? 0) - (laidOut.get(b.id)?.x ?? 0) || (laidOut.get(a.id)?.y ?? 0) - (laidOut.get(b.id)?.y ?? 0)),
    [view, laidOut],
  );

  const select = useCallback(
    (nodeId: string) => {
      const node = view.nodes.find((candidate) => candidate.id === nodeId);
      if (node?.kind === 'collapsed-rounds' && node.group) {
        setExpanded((current) => new Set(current).add(node.group!.id));
        return;
      }
      onSelect(nodeId);
    },
    [view, onSelect],
  );

  // Until the user pans, zooms or steps with the keyboard, the view follows the run: it opens
  // again whenever nodes are added or the pane changes size — readable zoom, first call in view.
  const userMoved = useRef(false);
  const nodeCount = view.nodes.length;
  useEffect(() => {
    if (userMoved.current || pane.size.width === 0) return;
    const frame = requestAnimationFrame(() => void flow.setViewport({ x: opening.x, y: opening.y, zoom: opening.zoom }));
    return () => cancelAnimationFrame(frame);
  }, [opening, flow, pane.size.width]);

  // The current pause is focused: a new ghost node is centred (the user's own moves aside) —
  // unless the whole graph fits the pane and the view still follows the run: then the opening
  // viewport shows it all, and centring the ghost would push the run's first nodes off the left.
  const newestGhost = view.nodes.filter((node) => node.kind === 'ghost').at(-1)?.id;
  useEffect(() => {
    if (!newestGhost || (opening.fits && !userMoved.current)) return;
    const frame = requestAnimationFrame(() => {
      const position = positions.get(newestGhost);
      if (position) void flow.setCenter(position.x + NODE_WIDTH / 2, position.y + NODE_HEIGHT / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
    });
    return () => cancelAnimationFrame(frame);
    // Only when a new pause appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [newestGhost]);

  // A marked node (a replay's divergence) is brought into view once it is drawn — after the
  // viewport's own first fit, which would otherwise undo it.
  const firstMarked = view.nodes.find((node) => markedNodeIds?.has(node.id))?.id;
  const [viewportReady, setViewportReady] = useState(false);
  const markedAt = firstMarked ? positions.get(firstMarked) : undefined;
  useEffect(() => {
    if (!firstMarked || !viewportReady || !markedAt) return;
    userMoved.current = true;
    const timer = setTimeout(() => void flow.fitView({ nodes: [{ id: firstMarked }], maxZoom: 1, minZoom: 0.8, duration: 200 }), 50);
    return () => clearTimeout(timer);
    // When another node is marked, the viewport gets ready, or the graph grows and the node moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstMarked, viewportReady, markedAt?.x, markedAt?.y, nodeCount]);

  const centerOn = (nodeId: string) => {
    userMoved.current = true;
    const position = positions.get(nodeId);
    if (position) void flow.setCenter(position.x + NODE_WIDTH / 2, position.y + NODE_HEIGHT / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (order.length === 0) return;
    const position = order.findIndex((node) => node.id === selectedNodeId);
    let next = position;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown' || event.key === 'j') next = Math.min(order.length - 1, position + 1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp' || event.key === 'k') next = Math.max(0, position - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = order.length - 1;
    else if (event.key === 'Enter' && position >= 0) {
      select(order[position].id);
      event.preventDefault();
      return;
    } else return;
    event.preventDefault();
    const target = order[Math.max(0, next)].id;
    onSelect(target);
    centerOn(target);
  };

  return (
    <div className="graph-canvas" ref={pane.ref} tabIndex={0} onKeyDown={onKeyDown} data-testid="run-graph" data-opening-zoom={opening.zoom.toFixed(2)} data-fits={pane.size.width > 0 ? String(opening.fits) : undefined} aria-label="Run graph: arrow keys move between nodes" role="application">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={(_event, node) => select(node.id)}
        onMoveStart={(event) => {
          // Only a user's pan or zoom (with an input event) stops the view from following.
          if (event) userMoved.current = true;
        }}
        onInit={() => setViewportReady(true)}
        minZoom={0.05}
        nodesDraggable={false}
        nodesConnectable={false}
        // Every drawn node is rendered while the graph is small: React Flow can only fit and
        // connect nodes it has measured. Long runs are collapsed; only when the user expands
        // a great many rounds do off-screen nodes stay unrendered.
        onlyRenderVisibleElements={view.nodes.length > 300}
        proOptions={{ hideAttribution: true }}
        colorMode="dark"
      >
        <Background gap={24} color="#232838" />
        <Controls showInteractive={false} />
        {/* Only a graph larger than the pane needs a map, and then it must not hide nodes it could show. */}
        {pane.size.width > 0 && !opening.fits && <MiniMap pannable zoomable nodeColor={(node) => TONE_COLOURS[(node as RunFlowNode).data.view.tone] ?? '#9aa1b5'} maskColor="rgba(15,17,23,0.7)" />}
      </ReactFlow>
    </div>
  );
}

/** The run graph drawn with React Flow: turns left to right, interrupts as pauses, dashed answer edges. */
export function RunGraphView(props: GraphViewProps) {
  if (props.graph.nodes.length === 0 && !props.pauses?.length) return props.empty ?? <p className="empty">No generate calls in these spans yet.</p>;
  return (
    <div className="graph-wrap">
      <GraphLegend />
      <ReactFlowProvider>
        <GraphCanvas {...props} />
      </ReactFlowProvider>
    </div>
  );
}
