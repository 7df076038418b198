import { getAppContext } from '@/lib/server/app-context';
import { liveEventFilter } from '@/lib/server/live-event-filter';

export const dynamic = 'force-dynamic';

/**
 * Server-sent events: spans as they arrive, span starts, run and runner changes.
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
  let keepAlive: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          unsubscribe();
        }
      };
      write(`event: ready\ndata: {}\n\n`);
      unsubscribe = context.bus.subscribe((event) => {
        if (accepts(event)) write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      keepAlive = setInterval(() => write(': keep-alive\n\n'), 15_000);
      request.signal.addEventListener('abort', () => {
        unsubscribe();
        clearInterval(keepAlive);
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      unsubscribe();
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
