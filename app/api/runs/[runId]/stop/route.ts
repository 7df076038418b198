import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';
import { stopRun } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

/** Stop: abort the generate cleanly; the trace says it was stopped. */
export async function POST(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    await stopRun(getAppContext(), runId);
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
