'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';
import { buildRunGraph } from '@/lib/graph/build-run-graph';
import type { ViewNode } from '@/lib/graph/collapse-rounds';
import type { ResumeMatch } from '@/lib/graph/match-resumes';
import type { RunGraph } from '@/lib/graph/run-graph';
import type { PauseInfo } from '@/lib/runtime/step-protocol';
import { classifySpan } from '@/lib/dialects/classify-span';
import { buildSpanTree, flattenSpanTree } from '@/lib/trace/span-tree';
import type { Span } from '@/lib/trace/span';
import { NodeDetail } from './node-detail';
import type { ResumeSource } from './resume-workbench';
import { RunGraphView } from './run-graph-view';
import { SpanDetail } from './span-detail';
import { SpanTreeView, spanKey } from './span-tree-view';

type Tab = 'graph' | 'spans';

/** Keeps the selected node and tab in the URL, so a view can be linked (`?node=…&tab=…`). */
function writeUrl(patch: { node?: string; tab?: Tab }) {
  const url = new URL(window.location.href);
  if (patch.node !== undefined) url.searchParams.set('node', patch.node);
  if (patch.tab !== undefined) url.searchParams.set('tab', patch.tab);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * The trace viewer: the run graph (default) and the span tree, with the selected node's or
 * span's detail beside them. Both views read the same spans and grow as spans arrive.
 */
export function TraceWorkspace(props: {
  spans: Span[];
  /** A graph the server built (large saved files): drawn without having every span here. */
  graph?: RunGraph;
  /** Which resume answers which interrupt, decided by the server with every trace in view (a session). */
  matches?: readonly ResumeMatch[];
  /** Fetches one span when the selected node's span is not among `spans`. */
  loadSpan?: (traceId: string, spanId: string) => Promise<Span | undefined>;
  /** Asked when the span tree is opened and `spans` is still empty. */
  onSpansNeeded?: () => void;
  initialNodeId?: string;
  initialTab?: Tab;
  /** Where a step-by-step run is paused (ghost nodes in the graph). */
  pauses?: PauseInfo[];
  /** Where these spans came from, so an interrupt can be answered from the workbench. */
  resumeSource?: ResumeSource;
}) {
  const { spans, loadSpan, onSpansNeeded } = props;
  const builtGraph = useMemo(() => (props.graph ? undefined : buildRunGraph(spans, { matches: props.matches })), [spans, props.graph, props.matches]);
  const graph = props.graph ?? (builtGraph as RunGraph);
  const tree = useMemo(() => buildSpanTree(spans, classifySpan), [spans]);
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
    if (tab === 'spans' && spans.length === 0) onSpansNeeded?.();
  }, [tab, spans.length, onSpansNeeded]);

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

  const selectedSpan = useMemo(() => spans.find((span) => spanKey(span) === selectedSpanKey), [spans, selectedSpanKey]);
  const selectedNode = graph.nodes.find((node) => node.id === selectedNodeId) as ViewNode | undefined;
  const localSpan = selectedNode?.spanId ? spans.find((span) => span.traceId === selectedNode.traceId && span.spanId === selectedNode.spanId) : undefined;
  // Spans not held here (a server-built graph) are fetched one at a time, when selected.
  const [fetchedSpan, setFetchedSpan] = useState<Span | undefined>();
  useEffect(() => {
    setFetchedSpan(undefined);
    if (localSpan || !selectedNode?.spanId || !loadSpan) return;
    let cancelled = false;
    void loadSpan(selectedNode.traceId, selectedNode.spanId).then((span) => {
      if (!cancelled) setFetchedSpan(span);
    });
    return () => {
      cancelled = true;
    };
  }, [localSpan, selectedNode?.traceId, selectedNode?.spanId, loadSpan]);
  const nodeSpan = localSpan ?? fetchedSpan;

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
            <RunGraphView graph={graph} selectedNodeId={selectedNodeId} onSelect={selectNode} pauses={props.pauses} />
          ) : (
            <SpanTreeView nodes={tree} selectedKey={selectedSpanKey} onSelect={setSelectedSpanKey} />
          )}
        </div>
      </div>
      {tab === 'graph' ? <NodeDetail graph={graph} node={selectedNode} span={nodeSpan} onSelectNode={selectNode} spans={spans} resumeSource={props.resumeSource} onSpansNeeded={onSpansNeeded} /> : <SpanDetail span={selectedSpan} />}
    </div>
  );
}
