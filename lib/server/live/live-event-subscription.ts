import type { AppContext } from '../app-context-ports';
import type { EventStreamOptions } from './event-stream';
import { liveEventFilter } from './live-event-filter';

/**
 * One page's event stream, from its query — `?runId=` and `?traceId=` narrow it, `?all=1`
 * widens it to every span — as Next's route (app/api/events) and the HTTP server's own answer
 * (events-fast-path.ts) open it: the filter, a watched run's snapshot, and its watcher (a page
 * watching a run keeps its pauses alive; when the last one leaves, a grace period starts).
 */
export function liveEventSubscription(context: AppContext, query: URLSearchParams): EventStreamOptions {
  const runId = query.get('runId') ?? undefined;
  const accepts = liveEventFilter(context.runs, { runId, traceIds: query.getAll('traceId'), all: query.get('all') === '1' });
  const unwatch = runId ? context.watchers.watch(runId) : () => {};
  return {
    bus: context.bus,
    accepts,
    // A page that connects late draws the run as it stands: its session, its open spans, its graph (built now if stale).
    snapshot: async (send) => {
      const snapshot = runId ? context.runs.snapshot(runId) : undefined;
      if (!snapshot || !runId) return;
      send({ type: 'run', run: snapshot.run });
      for (const span of snapshot.spanStarts) send({ type: 'span-start', span });
      const graph = await context.liveGraphs.current(runId).catch((error: unknown) => {
        console.error(`loopscope: the graph of run ${runId} could not be built`, error);
        return undefined;
      });
      if (graph) send(graph);
    },
    onClose: unwatch,
  };
}

/** The answer's headers (no-transform: a proxy, or Next, must not compress and buffer the stream). */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;
