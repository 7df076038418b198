import { buildRunGraph } from '@/lib/graph/build-run-graph';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { loadTraceById } from '@/lib/server/traces/load-captured-trace';

export const dynamic = 'force-dynamic';

/** Graph JSON of one trace — the same JSON as `loopscope graph --json`. */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    return Response.json(buildRunGraph(await loadTraceById(getAppContext(), traceId)));
  } catch (error) {
    return errorResponse(error);
  }
}
