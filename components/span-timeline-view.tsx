'use client';

import { useCallback, useMemo, type KeyboardEvent } from 'react';
import { formatMillis, spanTimeline } from '@/lib/spans/span-timeline';
import type { SpanTreeNode } from '@/lib/spans/span-tree';
import { spanKey } from './span-tree-view';
import { listStep } from './keyboard';

/**
 * The spans as a waterfall, as Jaeger and Phoenix draw them: one row per span in tree order,
 * a bar from its start to its end on one time axis, so parallel tool calls sit side by side
 * in time and a slow call stands out. ↑/↓ move the selection, like the span tree.
 */
export function SpanTimelineView(props: { nodes: SpanTreeNode[]; selectedKey?: string; onSelect: (key: string) => void }) {
  const { nodes, selectedKey, onSelect } = props;
  const timeline = useMemo(() => spanTimeline(nodes), [nodes]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const rows = timeline.rows;
      if (rows.length === 0) return;
      const index = rows.findIndex((row) => spanKey(row.node) === selectedKey);
      const next = listStep({ key: event.key, index, length: rows.length });
      if (next === undefined) return;
      event.preventDefault();
      const key = spanKey(rows[next].node);
      onSelect(key);
      document.getElementById(`timeline-${key}`)?.scrollIntoView({ block: 'nearest' });
    },
    [timeline, selectedKey, onSelect],
  );
  if (timeline.rows.length === 0) return <p className="empty">No spans yet.</p>;
  return (
    <div className="timeline" data-testid="span-timeline" tabIndex={0} onKeyDown={onKeyDown} role="listbox" aria-label={`Span timeline, ${formatMillis(timeline.totalMs)} in all: arrow keys move between spans`}>
      <div className="timeline-axis" aria-hidden>
        <span className="timeline-axis-label">{formatMillis(timeline.totalMs)} in all</span>
        <div className="timeline-track">
          {timeline.ticks.map((tick) => (
            <span key={tick.ms} className="timeline-tick" style={{ left: `${tick.at * 100}%` }}>
              {formatMillis(tick.ms)}
            </span>
          ))}
        </div>
      </div>
      {timeline.rows.map((row) => {
        const key = spanKey(row.node);
        const selected = key === selectedKey;
        return (
          <div
            key={key}
            id={`timeline-${key}`}
            role="option"
            aria-selected={selected}
            className={`timeline-row outcome-${row.node.outcome}${selected ? ' selected' : ''}`}
            data-testid="timeline-row"
            data-role={row.node.role}
            data-label={row.node.label}
            data-left={row.left.toFixed(4)}
            data-width={row.width.toFixed(4)}
            onClick={() => onSelect(key)}
          >
            <span className="timeline-name" style={{ paddingLeft: `${0.4 + row.node.depth * 0.9}rem` }} title={row.node.label}>
              {row.node.label}
            </span>
            <div className="timeline-track">
              <span
                className={`timeline-bar role-${row.node.role}${row.open ? ' open' : ''}`}
                style={{ left: `${row.left * 100}%`, width: `${row.width * 100}%` }}
                title={`${row.node.label}: starts at ${formatMillis(row.offsetMs)}, ${row.open ? 'still running' : formatMillis(row.node.durationMs ?? 0)} · ${row.node.statusText}`}
              />
              <span
                className="timeline-duration"
                // After the bar, or before it when the bar ends near the right edge.
                style={row.left + row.width > 0.85 ? { right: `calc(${(1 - row.left) * 100}% + 4px)` } : { left: `calc(${(row.left + row.width) * 100}% + 4px)` }}
              >
                {row.open ? 'running…' : formatMillis(row.node.durationMs ?? 0)}
              </span>
            </div>
          </div>
        );
      })}
    </div>
  );
}
