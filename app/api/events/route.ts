import { getAppContext } from '@/lib/server/app-context';
import { openEventStream } from '@/lib/server/event-stream';
import { liveEventFilter } from '@/lib/server/live-event-filter';

export const dynamic = 'force-dynamic';

/**
 * Server-sent events: spans as they arrive, span starts, run and runner changes, a watched
 * run's Graph JSON each time the server rebuilt it.
 * `?runId=` and `?traceId=` narrow the stream, `?all=1` widens it to every span; the token comes as `?token=` because
 * EventSource cannot send headers (checked by the proxy). Each event is encoded once for every
 * stream; a page that stops reading is dropped past a bounded queue and re-syncs when its
 * EventSource reconnects (lib/server/event-stream.ts).
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const context = getAppContext();
  const accepts = liveEventFilter(context.runs, {
    runId: url.searchParams.get('runId') ?? undefined,
    traceIds: url.searchParams.getAll('traceId'),
    all: url.searchParams.get('all') === '1',
  });
  // A page watching a run keeps its pauses alive; when the last one leaves, a grace period starts.
  const runId = url.searchParams.get('runId');
  const unwatch = runId ? context.watchers.watch(runId) : () => {};
  const { stream, close } = openEventStream({
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
  });
  request.signal.addEventListener('abort', close);
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: otherwise Next may compress and buffer the stream.
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
