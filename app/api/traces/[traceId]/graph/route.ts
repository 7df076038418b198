import { LoopscopeError } from '@/lib/errors';
import { buildRunGraph } from '@/lib/graph/build-run-graph';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/** Graph JSON of one trace — the same JSON as `loopscope graph --json`. */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    if (!/^[0-9a-f]{32}$/.test(traceId)) throw new LoopscopeError('INVALID_ARGUMENT', `"${traceId}" is not a trace id (32 hex characters).`);
    const spans = await getAppContext().store.get(traceId);
    if (!spans) throw new LoopscopeError('NOT_FOUND', `No trace ${traceId}.`);
    return Response.json(buildRunGraph(spans));
  } catch (error) {
    return errorResponse(error);
  }
}
