import { LoopscopeError } from '@/lib/errors';
import { linkTraces } from '@/lib/graph/trace-sessions';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/** The captured traces of this trace's session: it, the interrupts it resumed, the resumes that answered it. */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    if (!/^[0-9a-f]{32}$/.test(traceId)) throw new LoopscopeError('INVALID_ARGUMENT', `"${traceId}" is not a trace id (32 hex characters).`);
    const summaries = (await getAppContext().store.list()).reverse();
    return Response.json({ traceIds: linkTraces(summaries).sessionOf(traceId) });
  } catch (error) {
    return errorResponse(error);
  }
}
