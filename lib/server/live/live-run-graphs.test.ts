import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunSession } from '../../contract/run-session';
import type { RunGraph } from '../../graph/run-graph';
import { buildSpan } from '../../spans/testing/build-span';
import type { Span } from '../../spans/span';
import { EventBus, type LiveEvent } from './event-bus';
import { LiveRunGraphs } from './live-run-graphs';

const TRACE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

function session(patch: Partial<RunSession> = {}): RunSession {
  return { runId: 'run-1', label: 's', scenario: 's', status: 'running', traceIds: [TRACE], startedAt: 0, interrupts: [], resumes: 0, mode: { kind: 'run' }, pauses: [], version: 0, ...patch };
}

/** A fake graph that says how many spans it was built from. */
function fakeGraph(spans: Span[]): RunGraph {
  return { summary: { traces: 1, generates: 0, modelCalls: spans.length, toolCalls: 0, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: null }, generates: [], nodes: [], edges: [] };
}

function setup(options: { watched?: boolean; buildMs?: number; fail?: boolean } = {}) {
  const bus = new EventBus();
  const events: Extract<LiveEvent, { type: 'graph' }>[] = [];
  bus.subscribe((event) => {
    if (event.type === 'graph') events.push(event);
  });
  let run = session();
  const spans: Span[] = [];
  let builds = 0;
  const errors: unknown[] = [];
  const state = { watched: options.watched ?? true };
  const graphs = new LiveRunGraphs({
    bus,
    run: (runId) => (runId === run.runId ? run : undefined),
    loadSpans: async () => {
      if (options.fail) throw new Error('the trace file is corrupt');
      return [...spans];
    },
    build: (input) => {
      builds += 1;
      // A slow build: the clock moves while it works (fake timers).
      if (options.buildMs) vi.advanceTimersByTime(options.buildMs);
      return fakeGraph(input);
    },
    isWatched: () => state.watched,
    intervalMs: 50,
    onError: (_runId, error) => errors.push(error),
  });
  const arrive = (count = 1) => {
    for (let index = 0; index < count; index++) {
      const span = buildSpan({ traceId: TRACE, name: `span-${spans.length}` });
      spans.push(span);
      bus.publish({ type: 'spans', traceId: TRACE, spans: [span] });
    }
  };
  const setRun = (patch: Partial<RunSession>) => {
    run = { ...run, ...patch, version: run.version + 1 };
    bus.publish({ type: 'run', run });
  };
  // The registry announces the run when it is created.
  bus.publish({ type: 'run', run });
  return { bus, graphs, events, arrive, setRun, state, builds: () => builds, errors };
}

describe('LiveRunGraphs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('builds a watched run’s graph at once, then at most once per 50 ms however many batches arrive', async () => {
    const { graphs, events, arrive, builds } = setup();
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((event) => event.version)).toEqual([1]);
    // Twenty batches within 40 ms: one more build, at the end of the interval, with all of them.
    for (let index = 0; index < 20; index++) {
      arrive();
      await vi.advanceTimersByTimeAsync(2);
    }
    expect(events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(events.map((event) => event.version)).toEqual([1, 2]);
    expect(events[1].graph.summary.modelCalls).toBe(21);
    expect(builds()).toBe(2);
    // Quiet: nothing more is built.
    await vi.advanceTimersByTimeAsync(500);
    expect(builds()).toBe(2);
    graphs.close();
  });

  it('builds the final graph as soon as the run stops running, without waiting for the interval', async () => {
    const { graphs, events, arrive, setRun } = setup();
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    arrive(3);
    setRun({ status: 'finished' });
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((event) => [event.version, event.graph.summary.modelCalls])).toEqual([
      [1, 1],
      [2, 4],
    ]);
    graphs.close();
  });

  it('does not rebuild for a run event that changes no trace and no status (a pause, a mode)', async () => {
    const { graphs, events, arrive, setRun, builds } = setup();
    arrive();
    await vi.advanceTimersByTimeAsync(100);
    setRun({ pauses: [{ pauseId: 'p1', kind: 'model', modelTurn: 1, pausedAt: 1 }] });
    setRun({ mode: { kind: 'step' } });
    await vi.advanceTimersByTimeAsync(100);
    expect(builds()).toBe(1);
    expect(events).toHaveLength(1);
    graphs.close();
  });

  it('builds nothing for a run nobody watches; a page that connects late gets the current graph, built then, once', async () => {
    const { graphs, events, arrive, setRun, builds, state } = setup({ watched: false });
    arrive(5);
    setRun({ status: 'finished' });
    await vi.advanceTimersByTimeAsync(500);
    expect(builds()).toBe(0);
    state.watched = true;
    const snapshot = await graphs.current('run-1');
    expect(snapshot).toMatchObject({ type: 'graph', runId: 'run-1', version: 1, graph: { summary: { modelCalls: 5 } } });
    // Nothing new arrived: a second page is served the same graph without a build.
    expect(await graphs.current('run-1')).toBe(snapshot);
    expect(builds()).toBe(1);
    // The snapshot's graph also went to the bus (other pages of the run keep the newest version).
    expect(events.map((event) => event.version)).toEqual([1]);
    expect(await graphs.current('no-such-run')).toBeUndefined();
    graphs.close();
  });

  it('waits twice a slow build’s time before the next one', async () => {
    const { graphs, events, arrive } = setup({ buildMs: 200 });
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    arrive();
    await vi.advanceTimersByTimeAsync(300);
    expect(events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(events).toHaveLength(2);
    graphs.close();
  });

  it('a build that fails is reported and publishes nothing; the page keeps the graph it had', async () => {
    const { graphs, events, arrive, errors } = setup({ fail: true });
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toHaveLength(0);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('the trace file is corrupt');
    graphs.close();
  });
});

describe('LiveRunGraphs: answers from the workbench', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rebuilds an interrupted run’s graph when the run that answered it gets spans, and when the answer is noted', async () => {
    const ANSWER_TRACE = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    const bus = new EventBus();
    const built: string[] = [];
    let original = session({ runId: 'original', status: 'interrupted' });
    const answer = session({ runId: 'answer', traceIds: [ANSWER_TRACE] });
    const runs = new Map([
      ['original', () => original],
      ['answer', () => answer],
    ]);
    const graphs = new LiveRunGraphs({
      bus,
      run: (runId) => runs.get(runId)?.(),
      loadSpans: async () => [],
      build: (input) => fakeGraph(input),
      answeredRuns: (runId) => (runId === 'answer' && original.answeredBy?.includes('answer') ? ['original'] : []),
      isWatched: () => true,
      intervalMs: 50,
    });
    bus.subscribe((event) => {
      if (event.type === 'graph') built.push(event.runId);
    });
    bus.publish({ type: 'run', run: original });
    bus.publish({ type: 'run', run: answer });
    await vi.advanceTimersByTimeAsync(200);
    built.length = 0;

    // The workbench notes the answer on the original run: same status, same traces — a new graph all the same.
    original = { ...original, answeredBy: ['answer'], version: original.version + 1 };
    bus.publish({ type: 'run', run: original });
    await vi.advanceTimersByTimeAsync(200);
    expect(built).toContain('original');

    // The answer's spans arrive: both graphs are rebuilt.
    built.length = 0;
    bus.publish({ type: 'spans', traceId: ANSWER_TRACE, spans: [buildSpan({ traceId: ANSWER_TRACE, name: 'generate' })] });
    await vi.advanceTimersByTimeAsync(200);
    expect(built.sort()).toEqual(['answer', 'original']);
    graphs.close();
  });
});
