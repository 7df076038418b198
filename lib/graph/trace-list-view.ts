/**
 * The captured-trace list as the home page shows it: rows grouped by session (a run and the
 * resumes that answered it), searched and filtered, flattened into the rows a windowed list
 * draws. Pure and framework-free so the page can memoise each step over 10,000 rows.
 */
import type { TraceListRow } from '../contract/trace-list';
import { searchWords, traceSearchText } from '../spans/trace-index-rows';

/** The status filter's choices, in the list's words (`failed` is `error`, `paused` is `interrupted`, `in-flight` is `incomplete`). */
export const TRACE_STATUS_FILTERS = ['all', 'ok', 'failed', 'paused', 'answered', 'in-flight'] as const;
export type TraceStatusFilter = (typeof TRACE_STATUS_FILTERS)[number];
export const TRACE_TIME_FILTERS = ['all', 'hour', 'today'] as const;
export type TraceTimeFilter = (typeof TRACE_TIME_FILTERS)[number];

export interface TraceListFilter {
  /** Words to find in the title, name, service, models or trace id (case-insensitive). */
  query: string;
  status: TraceStatusFilter;
  /** A service name, or '' for any. */
  service: string;
  /** A runtime id, or '' for any. */
  runtime: string;
  time: TraceTimeFilter;
}

export const NO_TRACE_FILTER: TraceListFilter = { query: '', status: 'all', service: '', runtime: '', time: 'all' };

/** One session in the list: its first trace and the later ones (resumes), oldest first. */
export interface TraceGroup {
  head: TraceListRow;
  members: TraceListRow[];
  /** The latest start time in the group: newest groups first. */
  latest: number;
  /** Lowercased text of every row, for the search. */
  searchText: string[];
}

/** One drawn row of the windowed list. */
export interface TraceListLine {
  row: TraceListRow;
  /** 0 for a group's first trace, 1 for a resume nested under it. */
  depth: 0 | 1;
  /** How many later traces the group holds (on the head's line). */
  nested: number;
  /** The group's nested rows are hidden. */
  collapsed: boolean;
}

const STATUS_OF: Record<Exclude<TraceStatusFilter, 'all'>, TraceListRow['status']> = {
  ok: 'ok',
  failed: 'error',
  paused: 'interrupted',
  answered: 'answered',
  'in-flight': 'incomplete',
};

/**
 * Groups rows by session: a row whose `groupOf` names a listed trace nests under it; groups
 * come newest first (by their latest trace), resumes oldest first under their run.
 */
export function groupTraceRows(rows: readonly TraceListRow[]): TraceGroup[] {
  const listed = new Set(rows.map((row) => row.traceId));
  const byHead = new Map<string, TraceListRow[]>();
  const heads: TraceListRow[] = [];
  for (const row of rows) {
    if (row.groupOf && row.groupOf !== row.traceId && listed.has(row.groupOf)) {
      const members = byHead.get(row.groupOf) ?? [];
      members.push(row);
      byHead.set(row.groupOf, members);
    } else heads.push(row);
  }
  const groups = heads.map((head): TraceGroup => {
    const members = (byHead.get(head.traceId) ?? []).sort((a, b) => a.startTime - b.startTime);
    const latest = members.reduce((max, member) => Math.max(max, member.startTime), head.startTime);
    return { head, members, latest, searchText: [head, ...members].map(traceSearchText) };
  });
  return groups.sort((a, b) => b.latest - a.latest);
}

/** The start of the local day that holds `now`. */
function startOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** Is the filter anything but "show everything"? */
export function isFiltering(filter: TraceListFilter): boolean {
  return filter.query.trim() !== '' || filter.status !== 'all' || filter.service !== '' || filter.runtime !== '' || filter.time !== 'all';
}

/**
 * The groups with at least one trace that passes the filter, kept whole (a matching resume
 * shows with the run it answered). `now` decides "last hour" and "today".
 */
export function filterTraceGroups({ groups, filter, now }: { groups: readonly TraceGroup[]; filter: TraceListFilter; now: number }): TraceGroup[] {
  if (!isFiltering(filter)) return groups as TraceGroup[];
  const words = searchWords(filter.query);
  const status = filter.status === 'all' ? undefined : STATUS_OF[filter.status];
  const since = filter.time === 'hour' ? now - 3_600_000 : filter.time === 'today' ? startOfDay(now) : undefined;
  const passes = (row: TraceListRow, text: string) =>
    (status === undefined || row.status === status) &&
    (filter.service === '' || row.serviceName === filter.service) &&
    (filter.runtime === '' || row.runtime === filter.runtime) &&
    (since === undefined || row.startTime >= since) &&
    words.every((word) => text.includes(word));
  return groups.filter((group) => passes(group.head, group.searchText[0]) || group.members.some((member, position) => passes(member, group.searchText[position + 1])));
}

/** The lines a list draws: each group's head, then its resumes unless the group is collapsed. */
export function traceListLines({ groups, collapsed }: { groups: readonly TraceGroup[]; collapsed: ReadonlySet<string> }): TraceListLine[] {
  const lines: TraceListLine[] = [];
  for (const group of groups) {
    const isCollapsed = collapsed.has(group.head.traceId);
    lines.push({ row: group.head, depth: 0, nested: group.members.length, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (const member of group.members) lines.push({ row: member, depth: 1, nested: 0, collapsed: false });
  }
  return lines;
}

/** The services and runtimes present in the rows, sorted: the filters' choices. */
export function traceListFacets(rows: readonly TraceListRow[]): { services: string[]; runtimes: string[] } {
  const services = new Set<string>();
  const runtimes = new Set<string>();
  for (const row of rows) {
    if (row.serviceName) services.add(row.serviceName);
    if (row.runtime) runtimes.add(row.runtime);
  }
  return { services: [...services].sort(), runtimes: [...runtimes].sort() };
}

/** The rows a window of `height` pixels shows at `scrollTop`, plus `overscan` rows each side. */
export function visibleRange({ scrollTop, height, rowHeight, count, overscan = 6 }: { scrollTop: number; height: number; rowHeight: number; count: number; overscan?: number }): {
  start: number;
  end: number;
} {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}
