import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { stepRun } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Step: the oldest pause goes on; the run stops at the next step. */
export async function POST(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    await stepRun(getAppContext(), runId);
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
