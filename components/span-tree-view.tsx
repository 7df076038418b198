'use client';

import { memo, useCallback, useMemo, type KeyboardEvent } from 'react';
import { flattenSpanTree, type SpanTreeNode } from '@/lib/spans/span-tree';
import { listStep } from './keyboard';

const ROLE_ICON: Record<SpanTreeNode['role'], string> = {
  generate: '⟳',
  model: '◆',
  tool: '⚙',
  flow: '▶',
  other: '•',
};

export function spanKey(node: { traceId: string; spanId: string }): string {
  return `${node.traceId}:${node.spanId}`;
}

const SpanRow = memo(function SpanRow(props: { node: SpanTreeNode; selected: boolean; onSelect: (key: string) => void }) {
  const { node, selected, onSelect } = props;
  const key = spanKey(node);
  return (
    <div
      role="treeitem"
      aria-selected={selected}
      aria-level={node.depth + 1}
      tabIndex={selected ? 0 : -1}
      id={`span-${key}`}
      data-testid="span-row"
      data-span-id={node.spanId}
      data-role={node.role}
      data-outcome={node.outcome}
      data-label={node.label}
      className={`span-row outcome-${node.outcome}${selected ? ' selected' : ''}`}
      style={{ paddingLeft: `${0.75 + node.depth * 1.25}rem` }}
      onClick={() => onSelect(key)}
    >
      <span className={`role-icon role-${node.role}`} aria-hidden>
        {ROLE_ICON[node.role]}
      </span>
      <span className="span-label">{node.label}</span>
      <span className="span-role">{node.role}</span>
      {node.restarted ? <span className="tag tag-restart">restarted</span> : null}
      {node.orphan ? <span className="tag" title="Its parent span never arrived">orphan</span> : null}
      <span className={`status-pill status-${node.outcome}`} data-testid="span-status">
        {node.statusText}
      </span>
      <span className="span-duration">{node.durationMs !== undefined ? `${node.durationMs.toFixed(1)} ms` : ''}</span>
    </div>
  );
});

/** The span forest as a keyboard-navigable tree (↑/↓ move, Home/End jump). */
export function SpanTreeView(props: { nodes: SpanTreeNode[]; selectedKey?: string; onSelect: (key: string) => void }) {
  const { nodes, selectedKey, onSelect } = props;
  const flat = useMemo(() => flattenSpanTree(nodes), [nodes]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (flat.length === 0) return;
      const index = flat.findIndex((node) => spanKey(node) === selectedKey);
      const next = listStep({ key: event.key, index, length: flat.length });
      if (next === undefined) return;
      event.preventDefault();
      const key = spanKey(flat[next]);
      onSelect(key);
      document.getElementById(`span-${key}`)?.focus();
    },
    [flat, selectedKey, onSelect],
  );
  if (flat.length === 0) return <p className="empty">No spans yet.</p>;
  return (
    <div role="tree" aria-label="Spans" className="span-tree" onKeyDown={onKeyDown} data-testid="span-tree">
      {flat.map((node) => (
        <SpanRow key={spanKey(node)} node={node} selected={spanKey(node) === selectedKey} onSelect={onSelect} />
      ))}
    </div>
  );
}
