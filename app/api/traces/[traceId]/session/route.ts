import type { SessionResponse } from '@/lib/contract/session';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { traceSession } from '@/lib/server/traces/trace-session';

export const dynamic = 'force-dynamic';

/**
 * The captured traces of this trace's session (it, the interrupts it resumed, the resumes that
 * answered it) and which resume answers which interrupt, as decided with every captured trace
 * in view. `GET …/session/graph` is the session's Graph JSON built with them.
 */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    const answer: SessionResponse = await traceSession(getAppContext(), traceId);
    return Response.json(answer);
  } catch (error) {
    return errorResponse(error);
  }
}
