import { describe, expect, it } from 'vitest';
import type { TraceListRow } from '../contract/trace-list';
import { filterTraceGroups, groupTraceRows, NO_TRACE_FILTER, traceListFacets, traceListLines, visibleRange, type TraceListFilter } from './trace-list-view';

const NOW = new Date(2026, 11, 1, 12, 0, 0).getTime();
const HOUR = 3_600_000;

function row(traceId: string, overrides: Partial<TraceListRow> = {}): TraceListRow {
  return { traceId: traceId.padEnd(32, '0'), name: 'generate', title: 'generate', startTime: NOW - HOUR / 2, spanCount: 3, models: [], status: 'ok', ...overrides };
}

const ORIGINAL = row('a1', { title: 'approval-then-resume', status: 'answered', startTime: NOW - 5 * HOUR, serviceName: 'loopscope-runner', runtime: 'genkit-js' });
const RESUME = row('a2', { title: 'approval-then-resume', startTime: NOW - 10 * 60_000, groupOf: ORIGINAL.traceId, serviceName: 'loopscope-runner', runtime: 'genkit-js' });
const FAILED = row('b1', { title: 'checkout', name: 'checkoutFlow', status: 'error', startTime: NOW - 2 * HOUR, serviceName: 'shop' });
const PAUSED = row('c1', { title: 'refund', status: 'interrupted', startTime: NOW - 30 * HOUR, serviceName: 'shop' });
const FLIGHT = row('d1', { title: 'GET /health', status: 'incomplete', startTime: NOW - 60_000 });
const ROWS = [FLIGHT, RESUME, FAILED, ORIGINAL, PAUSED];

const shownIds = (filter: Partial<TraceListFilter>) =>
  traceListLines({ groups: filterTraceGroups({ groups: groupTraceRows(ROWS), filter: { ...NO_TRACE_FILTER, ...filter }, now: NOW }), collapsed: new Set() }).map((line) => line.row.traceId.slice(0, 2));

describe('groupTraceRows', () => {
  it('nests a resume under the run it answered, the group placed by its newest trace', () => {
    const groups = groupTraceRows(ROWS);
    expect(groups.map((group) => group.head.traceId.slice(0, 2))).toEqual(['d1', 'a1', 'b1', 'c1']);
    expect(groups[1].members.map((member) => member.traceId.slice(0, 2))).toEqual(['a2']);
    expect(groups[1].latest).toBe(RESUME.startTime);
  });

  it('lists a resume on its own when its run is not listed (deleted)', () => {
    expect(groupTraceRows([RESUME]).map((group) => group.head.traceId)).toEqual([RESUME.traceId]);
  });
});

describe('traceListLines', () => {
  it('draws resumes indented after their run, and hides them when the group is collapsed', () => {
    const groups = groupTraceRows(ROWS);
    const lines = traceListLines({ groups, collapsed: new Set() });
    expect(lines.map((line) => [line.row.traceId.slice(0, 2), line.depth])).toEqual([
      ['d1', 0],
      ['a1', 0],
      ['a2', 1],
      ['b1', 0],
      ['c1', 0],
    ]);
    expect(lines[1]).toMatchObject({ nested: 1, collapsed: false });
    const folded = traceListLines({ groups, collapsed: new Set([ORIGINAL.traceId]) });
    expect(folded.map((line) => line.row.traceId.slice(0, 2))).toEqual(['d1', 'a1', 'b1', 'c1']);
    expect(folded[1]).toMatchObject({ nested: 1, collapsed: true });
  });
});

describe('filterTraceGroups', () => {
  it('shows everything without a filter, and the same array (nothing recomputed)', () => {
    const groups = groupTraceRows(ROWS);
    expect(filterTraceGroups({ groups, filter: NO_TRACE_FILTER, now: NOW })).toBe(groups);
  });

  it('searches title, name, service and trace id, every word, case-insensitive', () => {
    expect(shownIds({ query: 'CHECKOUTflow' })).toEqual(['b1']);
    expect(shownIds({ query: 'shop refund' })).toEqual(['c1']);
    expect(shownIds({ query: 'd1000' })).toEqual(['d1']);
    expect(shownIds({ query: 'nothing-like-this' })).toEqual([]);
  });

  it('keeps a group whole when one of its traces matches', () => {
    expect(shownIds({ query: RESUME.traceId })).toEqual(['a1', 'a2']);
  });

  it('filters by status in the list words: failed, paused, answered, in flight', () => {
    expect(shownIds({ status: 'failed' })).toEqual(['b1']);
    expect(shownIds({ status: 'paused' })).toEqual(['c1']);
    expect(shownIds({ status: 'answered' })).toEqual(['a1', 'a2']);
    expect(shownIds({ status: 'in-flight' })).toEqual(['d1']);
    expect(shownIds({ status: 'ok' })).toEqual(['a1', 'a2']);
  });

  it('filters by service, runtime and time', () => {
    expect(shownIds({ service: 'shop' })).toEqual(['b1', 'c1']);
    expect(shownIds({ runtime: 'genkit-js' })).toEqual(['a1', 'a2']);
    expect(shownIds({ time: 'hour' })).toEqual(['d1', 'a1', 'a2']);
    expect(shownIds({ time: 'today' })).toEqual(['d1', 'a1', 'a2', 'b1']);
    expect(shownIds({ time: 'today', service: 'shop', status: 'paused' })).toEqual([]);
  });

  it('answers over 10,000 rows without building anything per keystroke but the answer', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => row(index.toString(16).padStart(8, '0'), { title: `run-${index}`, startTime: NOW - index }));
    const groups = groupTraceRows(many);
    const shown = filterTraceGroups({ groups, filter: { ...NO_TRACE_FILTER, query: 'run-9999' }, now: NOW });
    expect(shown.map((group) => group.head.title)).toEqual(['run-9999']);
  });
});

describe('traceListFacets and visibleRange', () => {
  it('offers the services and runtimes present', () => {
    expect(traceListFacets(ROWS)).toEqual({ services: ['loopscope-runner', 'shop'], runtimes: ['genkit-js'] });
  });

  it('keeps only the rows in view plus the overscan', () => {
    expect(visibleRange({ scrollTop: 0, height: 440, rowHeight: 44, count: 10_000, overscan: 5 })).toEqual({ start: 0, end: 15 });
    expect(visibleRange({ scrollTop: 44 * 100, height: 440, rowHeight: 44, count: 10_000, overscan: 5 })).toEqual({ start: 95, end: 115 });
    expect(visibleRange({ scrollTop: 44 * 10_000, height: 440, rowHeight: 44, count: 10_000, overscan: 5 })).toEqual({ start: 9995, end: 10_000 });
    expect(visibleRange({ scrollTop: 0, height: 440, rowHeight: 44, count: 3 })).toEqual({ start: 0, end: 3 });
  });
});
