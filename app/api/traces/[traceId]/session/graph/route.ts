import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { traceSessionGraph } from '@/lib/server/traces/trace-session';

export const dynamic = 'force-dynamic';

/** `{traceIds, graph}`: the Graph JSON of this trace's session, built with the matches decided over every captured trace. */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    return Response.json(await traceSessionGraph(getAppContext(), traceId));
  } catch (error) {
    return errorResponse(error);
  }
}
