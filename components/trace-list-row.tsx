'use client';

import { dialectTitle } from '@/lib/runtimes/index';
import Link from 'next/link';
import { memo } from 'react';
import type { TraceListLine } from '@/lib/graph/trace-list-view';
import { StatusPill } from './status-pill';

/** Every row has this height (px): the windowed list places rows by it (docs/style.md: virtualize long lists). */
export const TRACE_ROW_HEIGHT = 44;

function formatTime(millis: number): string {
  return new Date(millis).toLocaleString();
}

export interface TraceRowProps {
  line: TraceListLine;
  /** Position in the drawn lines (0-based): where the row sits. */
  position: number;
  count: number;
  selected: boolean;
  onSelect: (traceId: string, selected: boolean) => void;
  onToggle: (traceId: string) => void;
  onDelete: (traceId: string) => void;
}

/** One captured trace in the windowed list; memoised so a filter or a scroll redraws only rows that change. */
export const TraceRow = memo(function TraceRow({ line, position, count, selected, onSelect, onToggle, onDelete }: TraceRowProps) {
  const { row, depth, nested, collapsed } = line;
  return (
    <div
      role="listitem"
      aria-setsize={count}
      aria-posinset={position + 1}
      className={`trace-row${depth > 0 ? ' trace-row-nested' : ''}${selected ? ' trace-row-selected' : ''}`}
      style={{ top: position * TRACE_ROW_HEIGHT, height: TRACE_ROW_HEIGHT }}
      data-testid="trace-row"
      data-trace-id={row.traceId}
      data-depth={depth}
    >
      <input type="checkbox" checked={selected} onChange={(event) => onSelect(row.traceId, event.target.checked)} aria-label={`Select ${row.title} ${row.traceId.slice(0, 8)}`} data-testid="trace-select" />
      <span className="trace-row-toggle">
        {nested > 0 ? (
          <button
            type="button"
            className="trace-group-toggle"
            aria-expanded={!collapsed}
            aria-label={`${collapsed ? 'Show' : 'Hide'} ${nested} resume${nested === 1 ? '' : 's'} of ${row.title}`}
            onClick={() => onToggle(row.traceId)}
            data-testid="trace-group-toggle"
          >
            {collapsed ? '▸' : '▾'} {nested}
          </button>
        ) : depth > 0 ? (
          <span className="trace-row-branch" aria-hidden="true">
            ↳
          </span>
        ) : null}
      </span>
      <span className="trace-row-title">
        <Link href={`/traces/${row.traceId}`} data-testid="trace-title" title={row.title}>
          {row.title}
        </Link>
        <span className="trace-row-meta">
          {row.replays?.length ? (
            <span className="tag" data-testid="trace-replay-tag" title={`Replays ${row.replays.map((id) => id.slice(0, 8)).join(', ')}`}>
              replay
            </span>
          ) : null}
          {row.serviceName ? <span data-testid="trace-service">{row.serviceName}</span> : null}
          {row.name !== row.title ? <span>{row.name}</span> : null}
          {row.runtime ? (
            <span data-testid="trace-runtime" data-runtime={row.runtime}>
              {dialectTitle(row.runtime)}
            </span>
          ) : null}
          {row.models.length > 0 && !row.models.some((model) => model.endsWith(`/${row.title}`)) ? <span>{row.models.join(', ')}</span> : null}
          <span className="trace-id">{row.traceId.slice(0, 8)}</span>
        </span>
      </span>
      <span className="trace-row-status">
        <StatusPill status={row.status} testId="trace-status" />
        {row.answeredBy?.length ? (
          <span className="trace-note" data-testid="trace-answered-by">
            by{' '}
            {row.answeredBy.map((traceId, index) => (
              <span key={traceId}>
                {index > 0 ? ', ' : ''}
                <Link href={`/traces/${traceId}`}>{traceId.slice(0, 8)}</Link>
              </span>
            ))}
          </span>
        ) : null}
        {row.failedTools ? (
          <span className="trace-note error-text" data-testid="trace-failed-tools">
            {row.failedTools === 1 ? '1 tool failed' : `${row.failedTools} tools failed`}
          </span>
        ) : null}
      </span>
      <span className="trace-row-spans">{row.spanCount} spans</span>
      <time className="trace-row-time" dateTime={new Date(row.startTime).toISOString()} data-testid="trace-time">
        {formatTime(row.startTime)}
      </time>
      <button type="button" className="secondary trace-row-delete" onClick={() => onDelete(row.traceId)} aria-label={`Delete trace ${row.title} ${row.traceId.slice(0, 8)}`} data-testid="trace-delete">
        Delete
      </button>
    </div>
  );
});
