import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { EventBus, type LiveEvent } from './event-bus';
import { LiveRunGraphs } from './live-run-graphs';
import { liveRunSpans } from './live-run-spans';
import { RunRegistry, type RunSession } from '../services/run-registry';
import { startRun } from '../services/run-service';
import type { AppContext } from '../app-context-ports';
import { GoRunnerService } from '../../runtimes/genkit-go/run/go-runner-service';
import { startCaptureHarness, type CaptureHarness } from '../testing/capture-harness';

/**
 * The live graph of real runs: the runner's spans arrive over IPC, the server rebuilds each
 * watched run's graph as they come, and the last graph is the one the stored spans give.
 */
let harness: CaptureHarness;
let context: AppContext;
const bus = new EventBus();
const graphEvents: Extract<LiveEvent, { type: 'graph' }>[] = [];
/** Whether a page watches the runs (every run here, or none). */
let watching = false;

beforeAll(async () => {
  const runs = new RunRegistry((run) => bus.publish({ type: 'run', run }));
  harness = await startCaptureHarness({
    onStored: (spans) => {
      for (const traceId of new Set(spans.map((span) => span.traceId))) bus.publish({ type: 'spans', traceId, spans: spans.filter((span) => span.traceId === traceId) });
    },
    onSpanStart: (span) => {
      runs.recordSpanStart(span);
      bus.publish({ type: 'span-start', span });
    },
    onRunTrace: (runId, traceId) => runs.addTrace(runId, traceId),
  });
  expect(await harness.supervisor.whenReady()).toBe(true);
  const liveGraphs = new LiveRunGraphs({
    bus,
    run: (runId) => runs.get(runId),
    loadSpans: (run) => liveRunSpans({ store: harness.store, runs }, run),
    build: (spans) => buildRunGraph(spans),
    isWatched: () => watching,
  });
  bus.subscribe((event) => {
    if (event.type === 'graph') graphEvents.push(event);
  });
  context = { store: harness.store, runs, supervisor: harness.supervisor, bus, liveGraphs, goRunner: new GoRunnerService({ projectDir: process.cwd(), dataDir: path.join(process.cwd(), '.loopscope'), otlpEndpoint: harness.endpoint, token: harness.token }) } as unknown as AppContext;
});
afterAll(async () => {
  context?.liveGraphs.close();
  await harness?.close();
});

/** Resolves with the run once it is no longer running (its final graph was asked for then). */
function ended(runId: string): Promise<RunSession> {
  return new Promise((resolve) => {
    const stop = bus.subscribe((event) => {
      if (event.type === 'run' && event.run.runId === runId && event.run.status !== 'running') {
        stop();
        resolve(event.run);
      }
    });
  });
}

describe('live run graphs from the real runner', () => {
  it('a watched run: graphs arrive as it runs, versions grow, fewer builds than span batches, and the last equals the stored spans’ graph', async () => {
    const before = graphEvents.length;
    // Watched from the start, as a page that opens the run at once.
    watching = true;
    const run = await startRun({ context, scenario: 'multi-round-research' });
    const done = await ended(run.runId);
    expect(done.status).toBe('finished');
    // The final build starts when the run ends; `current` waits for it.
    const last = (await context.liveGraphs.current(run.runId))!;
    const events = graphEvents.slice(before).filter((event) => event.runId === run.runId);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.map((event) => event.version)).toEqual(events.map((_, index) => index + 1));
    // Each of the 14 spans starts and ends: far more changes than builds.
    expect(events.length).toBeLessThan(28);
    const stored = (await Promise.all(done.traceIds.map((traceId) => harness.store.get(traceId)))).flat().filter((span) => span !== undefined);
    expect(stored).toHaveLength(14);
    const expected = buildRunGraph(stored);
    expect(last.graph.summary).toEqual(expected.summary);
    expect(last.graph.nodes.map((node) => node.id).sort()).toEqual(expected.nodes.map((node) => node.id).sort());
    expect(last.version).toBe(events.at(-1)!.version);
    expect(last.graph.summary.finishReason).toBe('stop');
  });

  it('a run nobody watches costs no build; a late page gets its whole graph', async () => {
    watching = false;
    const before = graphEvents.length;
    const run = await startRun({ context, scenario: 'plain-tool-round' });
    await ended(run.runId);
    expect(graphEvents.slice(before).filter((event) => event.runId === run.runId)).toHaveLength(0);
    watching = true;
    const late = await context.liveGraphs.current(run.runId);
    expect(late).toMatchObject({ version: 1, graph: { summary: { generates: 1, modelCalls: 2, toolCalls: 2, finishReason: 'stop' } } });
  });
});
