import { LoopscopeError } from '@/lib/errors';
import { linkTraces } from '@/lib/graph/trace-sessions';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/**
 * The captured traces of this trace's session (it, the interrupts it resumed, the resumes that
 * answered it) and which resume answers which interrupt, as decided with every captured trace
 * in view — for `buildRunGraph(spans, {matches})`, so a guessed answer is drawn as one.
 */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    if (!/^[0-9a-f]{32}$/.test(traceId)) throw new LoopscopeError('INVALID_ARGUMENT', `"${traceId}" is not a trace id (32 hex characters).`);
    const summaries = (await getAppContext().store.list()).reverse();
    const links = linkTraces(summaries);
    const traceIds = links.sessionOf(traceId);
    return Response.json({ traceIds, matches: links.matchesOf(traceIds) });
  } catch (error) {
    return errorResponse(error);
  }
}
