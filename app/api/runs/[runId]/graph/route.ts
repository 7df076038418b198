import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** `{type: 'graph', runId, version, graph}`: the run's Graph JSON as it stands (the event stream sends each new version). */
export async function GET(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const update = await getAppContext().liveGraphs.current(runId);
    if (!update) throw new LoopscopeError('NOT_FOUND', `No run ${runId} (runs are kept in memory until the server restarts).`);
    return Response.json(update);
  } catch (error) {
    return errorResponse(error);
  }
}
