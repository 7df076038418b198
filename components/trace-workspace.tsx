'use client';

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PauseInfo } from '@/lib/contract/pause';
import type { TraceSource } from '@/lib/contract/trace-source';
import type { ViewNode } from '@/lib/graph/collapse-rounds';
import type { RunGraph } from '@/lib/graph/run-graph';
import { spanTreeOf } from '@/lib/graph/span-tree-view';
import { flattenSpanTree } from '@/lib/spans/span-tree';
import type { Span } from '@/lib/spans/span';
import { NodeDetail } from './node-detail';
import { RunGraphView } from './run-graph-view';
import { SpanDetail } from './span-detail';
import { EmptyGraphHelp } from './empty-graph-help';
import { SpanTimelineView } from './span-timeline-view';
import type { Tab } from './workspace-tab';
import { SpanTreeView, spanKey } from './span-tree-view';
import { useSpanView } from './use-span-view';

export type { Tab };

/** Keeps the selected node and tab in the URL, so a view can be linked (`?node=…&tab=…`). */
function writeUrl(patch: { node?: string; tab?: Tab }) {
  const url = new URL(window.location.href);
  if (patch.node !== undefined) url.searchParams.set('node', patch.node);
  if (patch.tab !== undefined) url.searchParams.set('tab', patch.tab);
  window.history.replaceState(window.history.state, '', url);
}

function parseSpanKey(key: string | undefined): { traceId: string; spanId: string } | undefined {
  const [traceId, spanId] = key?.split(':') ?? [];
  return traceId && spanId ? { traceId, spanId } : undefined;
}

/**
 * The trace viewer: the run graph (default; Graph JSON the server built) and the span tree
 * (from the spans, loaded when the tab is opened), with the selected node's or span's detail
 * beside them — the detail is the server's view of the span, fetched when selected.
 */
export function TraceWorkspace(props: {
  graph: RunGraph;
  /** The spans, for the span tree (empty until loaded). */
  spans: Span[];
  /** Where one span's detail view is served. */
  spanViewUrl: (span: { traceId: string; spanId: string }) => string;
  /** True once the spans were fetched (an empty list then means none arrived). */
  spansLoaded?: boolean;
  /** Asked when the span tree is opened and `spans` is still empty. */
  onSpansNeeded?: () => void;
  initialNodeId?: string;
  initialTab?: Tab;
  /** Where a step-by-step run is paused (ghost nodes in the graph). */
  pauses?: PauseInfo[];
  /** Where these spans came from, so an interrupt can be answered from the workbench. */
  resumeSource?: TraceSource;
  /** Shown above the detail, beside the graph (a stepped run's controls: graph and pause in view together). */
  aside?: ReactNode;
}) {
  const { graph, spans, onSpansNeeded, spanViewUrl } = props;
  const tree = useMemo(() => spanTreeOf(spans), [spans]);
  const [tab, setTab] = useState<Tab>(props.initialTab ?? 'graph');
  const [selectedNodeId, setSelectedNodeId] = useState<string | undefined>(props.initialNodeId);
  const [selectedSpanKey, setSelectedSpanKey] = useState<string | undefined>();

  const selectNode = useCallback(
    (nodeId: string) => {
      setSelectedNodeId(nodeId);
      const node = graph.nodes.find((candidate) => candidate.id === nodeId);
      if (node?.spanId) setSelectedSpanKey(`${node.traceId}:${node.spanId}`);
      writeUrl({ node: nodeId });
    },
    [graph],
  );
  const selectTab = (next: Tab) => {
    setTab(next);
    writeUrl({ tab: next });
  };
  useEffect(() => {
    // An empty graph explains itself with the spans that did arrive: load them then too.
    if ((tab !== 'graph' || graph.nodes.length === 0) && spans.length === 0) onSpansNeeded?.();
  }, [tab, spans.length, onSpansNeeded, graph.nodes.length]);

  // Select something once there is something: the deep-linked node, else the first node/span.
  useEffect(() => {
    if (selectedSpanKey === undefined && spans.length > 0) {
      const first = flattenSpanTree(tree)[0];
      if (first) setSelectedSpanKey(spanKey(first));
    }
  }, [tree, spans.length, selectedSpanKey]);
  useEffect(() => {
    if (selectedNodeId === undefined && graph.nodes.length > 0) setSelectedNodeId(graph.nodes[0].id);
    else if (selectedNodeId && props.initialNodeId === selectedNodeId && selectedSpanKey === undefined) {
      const node = graph.nodes.find((candidate) => candidate.id === selectedNodeId);
      if (node?.spanId) setSelectedSpanKey(`${node.traceId}:${node.spanId}`);
    }
  }, [graph, selectedNodeId, selectedSpanKey, props.initialNodeId]);

  const selectedNode = graph.nodes.find((node) => node.id === selectedNodeId) as ViewNode | undefined;
  // The span shown: the selected node's (graph tab) or the selected row's (span tree).
  const shown = tab === 'graph' ? (selectedNode?.spanId ? { traceId: selectedNode.traceId, spanId: selectedNode.spanId } : undefined) : parseSpanKey(selectedSpanKey);
  // A live span changes: fetched again when its end arrives or its node's status moves on.
  const local = shown ? spans.find((span) => span.traceId === shown.traceId && span.spanId === shown.spanId) : undefined;
  const shownNode = shown ? graph.nodes.find((node) => node.traceId === shown.traceId && node.spanId === shown.spanId) : undefined;
  const version = `${local?.endTimeUnixNano ?? ''}|${shownNode?.status ?? ''}|${shownNode?.tone ?? ''}`;
  const detail = useSpanView(shown ? spanViewUrl(shown) : undefined, version);

  return (
    <div className="workspace">
      <div className="workspace-main">
        <div role="tablist" aria-label="Views" className="tabs">
          <button role="tab" type="button" aria-selected={tab === 'graph'} className={`tab${tab === 'graph' ? ' active' : ''}`} onClick={() => selectTab('graph')} data-testid="tab-graph">
            Graph
          </button>
          <button role="tab" type="button" aria-selected={tab === 'spans'} className={`tab${tab === 'spans' ? ' active' : ''}`} onClick={() => selectTab('spans')} data-testid="tab-spans">
            Span tree
          </button>
          <button role="tab" type="button" aria-selected={tab === 'timeline'} className={`tab${tab === 'timeline' ? ' active' : ''}`} onClick={() => selectTab('timeline')} data-testid="tab-timeline">
            Timeline
          </button>
          <span className="graph-summary" data-testid="graph-summary">
            {graph.summary.generates} generate(s) · {graph.summary.modelCalls} model · {graph.summary.toolCalls} tool · {graph.summary.interrupts} interrupt(s)
            {graph.summary.responds + graph.summary.restarts + graph.summary.pendingReused > 0
              ? ` · answered: ${graph.summary.responds} respond, ${graph.summary.restarts} restart, ${graph.summary.pendingReused} pending`
              : ''}
            {graph.summary.errors > 0 ? ` · ${graph.summary.errors} failed` : ''}
          </span>
        </div>
        <div role="tabpanel" className="tab-panel">
          {tab === 'graph' ? (
            <RunGraphView graph={graph} selectedNodeId={selectedNodeId} onSelect={selectNode} pauses={props.pauses} empty={<EmptyGraphHelp spans={tree} spansLoaded={props.spansLoaded ?? spans.length > 0} />} />
          ) : tab === 'spans' ? (
            <SpanTreeView nodes={tree} selectedKey={selectedSpanKey} onSelect={setSelectedSpanKey} />
          ) : (
            <SpanTimelineView nodes={tree} selectedKey={selectedSpanKey} onSelect={setSelectedSpanKey} />
          )}
        </div>
      </div>
      <div className="workspace-side">
        {props.aside}
        {tab === 'graph' ? (
          <NodeDetail graph={graph} node={selectedNode} spanView={detail.view} spanError={detail.error} onSelectNode={selectNode} resumeSource={props.resumeSource} spanViewUrl={spanViewUrl} />
        ) : (
          <SpanDetail view={detail.view} error={detail.error} />
        )}
      </div>
    </div>
  );
}
