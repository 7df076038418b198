import type { SpanView } from '@/lib/contract/span-view';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { loadSpanView } from '@/lib/server/traces/load-span-view';

export const dynamic = 'force-dynamic';

/** One span of a captured trace (or of a live run, while it runs), as the detail panel shows it. */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string; spanId: string }> }): Promise<Response> {
  try {
    const { traceId, spanId } = await context.params;
    const view: SpanView = await loadSpanView(getAppContext(), { traceId, spanId });
    return Response.json(view);
  } catch (error) {
    return errorResponse(error);
  }
}
