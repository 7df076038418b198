import { getAppContext } from '@/lib/server/app-context';
import { openEventStream } from '@/lib/server/live/event-stream';
import { EVENT_STREAM_HEADERS, liveEventSubscription } from '@/lib/server/live/live-event-subscription';

export const dynamic = 'force-dynamic';

/**
 * Server-sent events: spans as they arrive, span starts, run and runner changes, a watched
 * run's Graph JSON each time the server rebuilt it.
 * `?runId=` and `?traceId=` narrow the stream, `?all=1` widens it to every span; the token comes as `?token=` because
 * EventSource cannot send headers (checked by the proxy). Each event is encoded once for every
 * stream; a page that stops reading is dropped past a bounded queue and re-syncs when its
 * EventSource reconnects (lib/server/live/event-stream.ts). The production server answers this
 * path itself, in front of Next (lib/server/http/events-fast-path.ts); this route answers until
 * the app context exists, and under `next dev`.
 */
export async function GET(request: Request): Promise<Response> {
  const { stream, close } = openEventStream(liveEventSubscription(getAppContext(), new URL(request.url).searchParams));
  request.signal.addEventListener('abort', close);
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
}
