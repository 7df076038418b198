'use client';

import { dialectTitle } from '@/lib/runtimes/index';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TraceDeleteResponse, TraceListRow } from '@/lib/contract/trace-list';
import {
  filterTraceGroups,
  groupTraceRows,
  isFiltering,
  NO_TRACE_FILTER,
  traceListFacets,
  traceListLines,
  visibleRange,
  type TraceListFilter,
  type TraceStatusFilter,
  type TraceTimeFilter,
} from '@/lib/graph/trace-list-view';
import { apiJson } from './api-client';
import { TRACE_ROW_HEIGHT, TraceRow } from './trace-list-row';

const STATUS_CHOICES: Array<[TraceStatusFilter, string]> = [
  ['all', 'any status'],
  ['ok', 'ok'],
  ['failed', 'failed'],
  ['paused', 'paused'],
  ['answered', 'answered'],
  ['in-flight', 'in flight'],
];
const TIME_CHOICES: Array<[TraceTimeFilter, string]> = [
  ['all', 'any time'],
  ['hour', 'last hour'],
  ['today', 'today'],
];

/** What a confirmed delete removes. */
type DeletePlan = { traceIds: string[] } | { all: true; count: number };

function plural(count: number): string {
  return count === 1 ? '1 captured trace' : `${count.toLocaleString()} captured traces`;
}

/** Is the key press meant for a field (so `/` types a slash there)? */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The captured traces: grouped by session, searched and filtered, drawn as a windowed list
 * (only the rows in view plus a few either side are in the DOM), each deletable after a
 * confirmation. Deleting never touches the saved files in traces/.
 */
export function TraceList({ traces, onDeleted }: { traces: readonly TraceListRow[]; onDeleted: (traceIds: string[]) => void }) {
  const [filter, setFilter] = useState<TraceListFilter>(NO_TRACE_FILTER);
  const [now, setNow] = useState(() => Date.now());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [plan, setPlan] = useState<DeletePlan | undefined>();
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const searchRef = useRef<HTMLInputElement>(null);

  // Typing stays responsive: the list follows the search a frame later, never blocks a key.
  const deferredFilter = useDeferredValue(filter);
  const groups = useMemo(() => groupTraceRows(traces), [traces]);
  const facets = useMemo(() => traceListFacets(traces), [traces]);
  const shown = useMemo(() => filterTraceGroups({ groups, filter: deferredFilter, now }), [groups, deferredFilter, now]);
  const lines = useMemo(() => traceListLines({ groups: shown, collapsed }), [shown, collapsed]);
  const shownCount = useMemo(() => shown.reduce((total, group) => total + 1 + group.members.length, 0), [shown]);

  const change = (patch: Partial<TraceListFilter>) => {
    if (patch.time !== undefined) setNow(Date.now());
    setFilter((current) => ({ ...current, ...patch }));
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onSelect = useCallback((traceId: string, isSelected: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (isSelected) next.add(traceId);
      else next.delete(traceId);
      return next;
    });
  }, []);
  const onToggle = useCallback((traceId: string) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(traceId)) next.add(traceId);
      return next;
    });
  }, []);
  const onDelete = useCallback((traceId: string) => setPlan({ traceIds: [traceId] }), []);

  // Selected traces that a filter hides are not deleted behind the user's back.
  const shownIds = useMemo(() => new Set(lines.map((line) => line.row.traceId)), [lines]);
  const selectedShown = useMemo(() => [...selected].filter((traceId) => shownIds.has(traceId)), [selected, shownIds]);
  const allShownSelected = lines.length > 0 && selectedShown.length === lines.length;

  const confirmDelete = async () => {
    if (!plan) return;
    setDeleting(true);
    try {
      const answer = await apiJson<TraceDeleteResponse>('/api/traces/delete', { method: 'POST', body: 'all' in plan ? { all: true } : { traceIds: plan.traceIds } });
      onDeleted(answer.deleted);
      const gone = new Set(answer.deleted);
      setSelected((current) => new Set([...current].filter((traceId) => !gone.has(traceId))));
      setMessage({ text: `Deleted ${plural(answer.deleted.length)}. Saved files in traces/ were not touched.`, error: false });
      setPlan(undefined);
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true });
      setPlan(undefined);
    } finally {
      setDeleting(false);
    }
  };

  const planCount = plan ? ('all' in plan ? plan.count : plan.traceIds.length) : 0;
  return (
    <div className="trace-list">
      <div className="trace-toolbar" role="search">
        <input
          ref={searchRef}
          type="search"
          className="trace-search"
          value={filter.query}
          onChange={(event) => change({ query: event.target.value })}
          placeholder="Search title, service, trace id  ( / )"
          aria-label="Search captured traces"
          aria-keyshortcuts="/"
          data-testid="trace-search"
        />
        <select value={filter.status} onChange={(event) => change({ status: event.target.value as TraceStatusFilter })} aria-label="Status" data-testid="trace-filter-status">
          {STATUS_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <select value={filter.service} onChange={(event) => change({ service: event.target.value })} aria-label="Service" data-testid="trace-filter-service">
          <option value="">any service</option>
          {facets.services.map((service) => (
            <option key={service} value={service}>
              {service}
            </option>
          ))}
        </select>
        <select value={filter.runtime} onChange={(event) => change({ runtime: event.target.value })} aria-label="Runtime" data-testid="trace-filter-runtime">
          <option value="">any runtime</option>
          {facets.runtimes.map((runtime) => (
            <option key={runtime} value={runtime}>
              {dialectTitle(runtime)}
            </option>
          ))}
        </select>
        <select value={filter.time} onChange={(event) => change({ time: event.target.value as TraceTimeFilter })} aria-label="Time" data-testid="trace-filter-time">
          {TIME_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <span className="trace-count" data-testid="trace-count" aria-live="polite">
          {isFiltering(deferredFilter) ? `${shownCount.toLocaleString()} of ${traces.length.toLocaleString()}` : traces.length.toLocaleString()} trace{traces.length === 1 ? '' : 's'}
        </span>
        <span className="trace-toolbar-actions">
          <button type="button" className="secondary" disabled={selectedShown.length === 0} onClick={() => setPlan({ traceIds: selectedShown })} data-testid="trace-delete-selected">
            Delete selected{selectedShown.length > 0 ? ` (${selectedShown.length.toLocaleString()})` : ''}
          </button>
          <button type="button" className="secondary" disabled={traces.length === 0} onClick={() => setPlan({ all: true, count: traces.length })} data-testid="trace-delete-all">
            Delete all…
          </button>
        </span>
      </div>
      {plan ? (
        <div role="alertdialog" aria-labelledby="trace-delete-question" className="trace-delete-confirm" data-testid="trace-delete-confirm">
          <span id="trace-delete-question">
            Delete {'all' in plan ? `all ${plural(planCount)}` : plural(planCount)}? Saved files in <code>traces/</code> are not touched.
          </span>
          <button type="button" className="danger" onClick={confirmDelete} disabled={deleting} data-testid="trace-delete-confirm-button" autoFocus>
            {deleting ? 'Deleting…' : 'Delete'}
          </button>
          <button type="button" className="secondary" onClick={() => setPlan(undefined)} disabled={deleting} data-testid="trace-delete-cancel">
            Cancel
          </button>
        </div>
      ) : null}
      {message ? (
        <p role="status" className={message.error ? 'error-text' : 'hint'} data-testid="trace-delete-message">
          {message.text}
        </p>
      ) : null}
      <div className="trace-list-head" aria-hidden={lines.length === 0}>
        <input
          type="checkbox"
          checked={allShownSelected}
          disabled={lines.length === 0}
          onChange={(event) => setSelected(event.target.checked ? new Set(lines.map((line) => line.row.traceId)) : new Set())}
          aria-label="Select every shown trace"
          data-testid="trace-select-all"
        />
        <span>{selectedShown.length > 0 ? `${selectedShown.length.toLocaleString()} selected` : 'trace'}</span>
      </div>
      {lines.length === 0 && traces.length > 0 ? (
        <p className="empty" data-testid="trace-list-none">
          No trace matches the search and filters.
        </p>
      ) : null}
      <WindowedLines lines={lines} selected={selected} onSelect={onSelect} onToggle={onToggle} onDelete={onDelete} />
    </div>
  );
}

/** The scroll container: only the lines in view (plus overscan) are rendered, each at its fixed height. */
function WindowedLines(props: {
  lines: ReturnType<typeof traceListLines>;
  selected: ReadonlySet<string>;
  onSelect: (traceId: string, selected: boolean) => void;
  onToggle: (traceId: string) => void;
  onDelete: (traceId: string) => void;
}) {
  const { lines, selected, onSelect, onToggle, onDelete } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 600 });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setView({ scrollTop: element.scrollTop, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const { start, end } = visibleRange({ scrollTop: view.scrollTop, height: view.height, rowHeight: TRACE_ROW_HEIGHT, count: lines.length });
  const total = lines.length * TRACE_ROW_HEIGHT;
  return (
    <div
      ref={scroller}
      className="trace-table"
      role="list"
      aria-label="Captured traces"
      style={{ height: total }}
      onScroll={(event) => setView({ scrollTop: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
      data-testid="trace-table"
      data-rows={lines.length}
    >
      <div className="trace-table-inner" style={{ height: total }}>
        {lines.slice(start, end).map((line, offset) => (
          <TraceRow
            key={line.row.traceId}
            line={line}
            position={start + offset}
            count={lines.length}
            selected={selected.has(line.row.traceId)}
            onSelect={onSelect}
            onToggle={onToggle}
            onDelete={onDelete}
          />
        ))}
      </div>
    </div>
  );
}
