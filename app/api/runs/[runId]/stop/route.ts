import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { stopRun } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Stop: the run ends at once, whatever it is running; the answer is the run, stopped, and its trace says so. */
export async function POST(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const run = await stopRun(getAppContext(), runId);
    return Response.json({ ok: true, run });
  } catch (error) {
    return errorResponse(error);
  }
}
