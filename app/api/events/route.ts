import { getAppContext } from '@/lib/server/app-context';
import type { LiveEvent } from '@/lib/server/event-bus';
import { liveEventFilter } from '@/lib/server/live-event-filter';

export const dynamic = 'force-dynamic';

/**
 * Server-sent events: spans as they arrive, span starts, run and runner changes, a watched
 * run's Graph JSON each time the server rebuilt it.
 * `?runId=` and `?traceId=` narrow the stream, `?all=1` widens it to every span; the token comes as `?token=` because
 * EventSource cannot send headers (checked by the proxy).
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const context = getAppContext();
  const accepts = liveEventFilter(context.runs, {
    runId: url.searchParams.get('runId') ?? undefined,
    traceIds: url.searchParams.getAll('traceId'),
    all: url.searchParams.get('all') === '1',
  });
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  // A page watching a run keeps its pauses alive; when the last one leaves, a grace period starts.
  const runId = url.searchParams.get('runId');
  const unwatch = runId ? context.watchers.watch(runId) : () => {};
  let keepAlive: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          unsubscribe();
        }
      };
      const send = (event: LiveEvent) => write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      // Listened to first: the page may leave while the snapshot's graph is being built.
      request.signal.addEventListener('abort', () => {
        unsubscribe();
        unwatch();
        clearInterval(keepAlive);
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      // Subscribe before the snapshot: an event in between may come twice, never not at all.
      unsubscribe = context.bus.subscribe((event) => {
        if (accepts(event)) send(event);
      });
      const snapshot = runId ? context.runs.snapshot(runId) : undefined;
      if (snapshot && runId) {
        send({ type: 'run', run: snapshot.run });
        for (const span of snapshot.spanStarts) send({ type: 'span-start', span });
        // A page that connects late draws the run's graph as it stands (built now if stale).
        const graph = await context.liveGraphs.current(runId).catch((error: unknown) => {
          console.error(`loopscope: the graph of run ${runId} could not be built`, error);
          return undefined;
        });
        if (graph) send(graph);
      }
      // After the snapshot: the page fetches stored spans once it sees this.
      write(`event: ready\ndata: {}\n\n`);
      if (request.signal.aborted) return;
      keepAlive = setInterval(() => write(': keep-alive\n\n'), 15_000);
    },
    cancel() {
      unsubscribe();
      unwatch();
      clearInterval(keepAlive);
    },
  });
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
