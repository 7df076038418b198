import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { recordedGraphJson } from '@/lib/server/traces/recorded-graph';

export const dynamic = 'force-dynamic';

/** Graph JSON of the recording a replay run replays (its replayed graph arrives on the event stream). */
export async function GET(_request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    return new Response(await recordedGraphJson(getAppContext(), runId), { headers: { 'content-type': 'application/json' } });
  } catch (error) {
    return errorResponse(error);
  }
}
