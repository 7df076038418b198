import { PauseDecisionRequestSchema } from '@/lib/contract/pause';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { decidePause } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Ends one pause with a decision: continue, replace the model's answer, edit / answer / interrupt / fail a tool. */
export async function POST(request: Request, context: { params: Promise<{ runId: string; pauseId: string }> }): Promise<Response> {
  try {
    const { runId, pauseId } = await context.params;
    const { decision } = await readJsonBody({ request, schema: PauseDecisionRequestSchema });
    return Response.json(await decidePause({ context: getAppContext(), runId, pauseId, decision }));
  } catch (error) {
    return errorResponse(error);
  }
}
