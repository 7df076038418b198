import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { continueRun } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Continue: run on to the next breakpoint, interrupt or the end. */
export async function POST(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    await continueRun(getAppContext(), runId);
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
