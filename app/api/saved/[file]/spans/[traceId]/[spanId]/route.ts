import type { SpanView } from '@/lib/contract/span-view';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { loadSavedSpanView } from '@/lib/server/traces/load-span-view';

export const dynamic = 'force-dynamic';

/** One span of a saved file, as the detail panel shows it (the page holds the graph, not the spans). */
export async function GET(_request: Request, context: { params: Promise<{ file: string; traceId: string; spanId: string }> }): Promise<Response> {
  try {
    const { file, traceId, spanId } = await context.params;
    const view: SpanView = await loadSavedSpanView(getAppContext(), { file: decodeURIComponent(file), traceId, spanId });
    return Response.json(view);
  } catch (error) {
    return errorResponse(error);
  }
}
