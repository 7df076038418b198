import { describe, expect, it } from 'vitest';
import type { SpanStartEvent } from '../../runner/runner-protocol';
import type { LiveEvent } from './event-bus';
import { liveEventFilter } from './live-event-filter';
import { RunRegistry } from '../services/run-registry';
import type { RunnerPoolStatus } from '../../contract/runner-status';

const TRACE_A1 = 'a1'.repeat(16);
const TRACE_A2 = 'a2'.repeat(16);
const TRACE_B = 'b0'.repeat(16);
const TRACE_LOOSE = 'cc'.repeat(16);

function spanStart(runId: string, traceId: string): LiveEvent {
  const span: SpanStartEvent = { runId, traceId, spanId: '0102030405060708', name: 'generate', attributes: {}, startTimeUnixNano: '1' };
  return { type: 'span-start', span };
}
const spans = (traceId: string): LiveEvent => ({ type: 'spans', traceId, spans: [] });
const runner: LiveEvent = { type: 'runner', status: { state: 'ready', restarts: 0 } satisfies RunnerPoolStatus };
const tracesChanged: LiveEvent = { type: 'traces-changed', traceIds: [TRACE_A1] };

function setUp() {
  const runs = new RunRegistry(() => undefined);
  const runA = runs.create({ scenario: 'a' });
  const runB = runs.create({ scenario: 'b' });
  runs.addTrace(runA.runId, TRACE_A1);
  runs.addTrace(runB.runId, TRACE_B);
  const runEvent = (runId: string): LiveEvent => ({ type: 'run', run: runs.get(runId)! });
  return { runs, a: runA.runId, b: runB.runId, runEvent };
}

describe('liveEventFilter', () => {
  it('a run page gets its run, its span-starts and the spans of its traces — not other runs\'', () => {
    const { runs, a, b, runEvent } = setUp();
    const wants = liveEventFilter(runs, { runId: a, traceIds: [] });
    expect(wants(runEvent(a))).toBe(true);
    expect(wants(runEvent(b))).toBe(false);
    expect(wants(spanStart(a, TRACE_A1))).toBe(true);
    expect(wants(spanStart(b, TRACE_B))).toBe(false);
    expect(wants(spans(TRACE_A1))).toBe(true);
    expect(wants(spans(TRACE_B))).toBe(false);
    expect(wants(spans(TRACE_LOOSE))).toBe(false);
    expect(wants(runner)).toBe(true);
    expect(wants(tracesChanged)).toBe(true);
  });

  it('a run’s graph goes only to the pages of that run (not the home page, not a trace page)', () => {
    const { runs, a, b } = setUp();
    const graph = (runId: string): LiveEvent => ({ type: 'graph', runId, version: 1, graph: { summary: {} as never, generates: [], nodes: [], edges: [] } });
    expect(liveEventFilter(runs, { runId: a, traceIds: [] })(graph(a))).toBe(true);
    expect(liveEventFilter(runs, { runId: a, traceIds: [] })(graph(b))).toBe(false);
    expect(liveEventFilter(runs, { traceIds: [] })(graph(a))).toBe(false);
    expect(liveEventFilter(runs, { traceIds: [TRACE_A1] })(graph(a))).toBe(false);
  });

  it('a run page gets a span-start of its run in a brand-new trace (before addTrace)', () => {
    const { runs, a } = setUp();
    const wants = liveEventFilter(runs, { runId: a, traceIds: [] });
    expect(wants(spanStart(a, TRACE_A2))).toBe(true);
    expect(wants(spans(TRACE_A2))).toBe(false);
  });

  it('a run page follows traces added to the run after it subscribed (a resume)', () => {
    const { runs, a } = setUp();
    const wants = liveEventFilter(runs, { runId: a, traceIds: [] });
    expect(wants(spans(TRACE_A2))).toBe(false);
    runs.addTrace(a, TRACE_A2);
    expect(wants(spans(TRACE_A2))).toBe(true);
  });

  it('a run page of an unknown run gets no spans', () => {
    const { runs, b } = setUp();
    const wants = liveEventFilter(runs, { runId: 'gone', traceIds: [] });
    expect(wants(spans(TRACE_A1))).toBe(false);
    expect(wants(spanStart(b, TRACE_B))).toBe(false);
    expect(wants(runner)).toBe(true);
  });

  it('a trace page gets only that trace\'s spans and span-starts', () => {
    const { runs, a, b, runEvent } = setUp();
    const wants = liveEventFilter(runs, { traceIds: [TRACE_A1] });
    expect(wants(spans(TRACE_A1))).toBe(true);
    expect(wants(spanStart(a, TRACE_A1))).toBe(true);
    expect(wants(spans(TRACE_A2))).toBe(false);
    expect(wants(spans(TRACE_B))).toBe(false);
    expect(wants(spanStart(b, TRACE_B))).toBe(false);
    expect(wants(spanStart(a, TRACE_A2))).toBe(false);
    // Without a run filter, run statuses are small and always wanted.
    expect(wants(runEvent(b))).toBe(true);
  });

  it('a span-start outside any run (an external exporter) reaches only the page of its trace', () => {
    const { runs, a } = setUp();
    const external = { ...spanStart('', TRACE_LOOSE) };
    expect(liveEventFilter(runs, { traceIds: [TRACE_LOOSE] })(external)).toBe(true);
    expect(liveEventFilter(runs, { traceIds: [] })(external)).toBe(false);
    expect(liveEventFilter(runs, { runId: a, traceIds: [] })(external)).toBe(false);
  });

  it('the home page (no filter) gets runs, runner and traces-changed, but no spans', () => {
    const { runs, a, b, runEvent } = setUp();
    const wants = liveEventFilter(runs, { traceIds: [] });
    expect(wants(runEvent(a))).toBe(true);
    expect(wants(runEvent(b))).toBe(true);
    expect(wants(runner)).toBe(true);
    expect(wants(tracesChanged)).toBe(true);
    expect(wants(spans(TRACE_A1))).toBe(false);
    expect(wants(spans(TRACE_LOOSE))).toBe(false);
    expect(wants(spanStart(a, TRACE_A1))).toBe(false);
    expect(wants(spanStart(b, TRACE_B))).toBe(false);
  });

  it('`all` gets everything', () => {
    const { runs, b } = setUp();
    const wants = liveEventFilter(runs, { traceIds: [], all: true });
    expect(wants(spans(TRACE_LOOSE))).toBe(true);
    expect(wants(spanStart(b, TRACE_B))).toBe(true);
  });
});
