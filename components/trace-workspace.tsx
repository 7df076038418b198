'use client';

import { useEffect, useMemo, useState } from 'react';
import { buildSpanTree, flattenSpanTree } from '@/lib/trace/span-tree';
import type { Span } from '@/lib/trace/span';
import { SpanDetail } from './span-detail';
import { SpanTreeView, spanKey } from './span-tree-view';

/**
 * The trace viewer: a span tree and the selected span's detail. The tab strip is the seam
 * where the run graph joins as the first view.
 */
export function TraceWorkspace(props: { spans: Span[]; initialSpanId?: string }) {
  const { spans } = props;
  const tree = useMemo(() => buildSpanTree(spans), [spans]);
  const [selectedKey, setSelectedKey] = useState<string | undefined>();

  // Select the requested span, or the first one, once spans are there.
  useEffect(() => {
    if (selectedKey !== undefined || spans.length === 0) return;
    const flat = flattenSpanTree(tree);
    const requested = props.initialSpanId ? flat.find((node) => node.spanId === props.initialSpanId) : undefined;
    setSelectedKey(spanKey(requested ?? flat[0]));
  }, [tree, spans.length, selectedKey, props.initialSpanId]);

  const selected = useMemo(() => spans.find((span) => spanKey(span) === selectedKey), [spans, selectedKey]);
  return (
    <div className="workspace">
      <div className="workspace-main">
        <div role="tablist" aria-label="Views" className="tabs">
          <button role="tab" aria-selected className="tab active" type="button">
            Span tree
          </button>
        </div>
        <div role="tabpanel" className="tab-panel">
          <SpanTreeView nodes={tree} selectedKey={selectedKey} onSelect={setSelectedKey} />
        </div>
      </div>
      <SpanDetail span={selected} />
    </div>
  );
}
