import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const run = getAppContext().runs.get(runId);
    if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId} (runs are kept in memory until the server restarts).`);
    return Response.json({ run });
  } catch (error) {
    return errorResponse(error);
  }
}
