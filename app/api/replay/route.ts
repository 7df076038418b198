import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { ReplayRequestSchema } from '@/lib/contract/replay';
import { startReplay } from '@/lib/server/services/replay-service';

export const dynamic = 'force-dynamic';

/** Replays (or forks) a saved file or captured traces; the replay is a run: follow it at /runs/{runId}. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: ReplayRequestSchema });
    return Response.json({ run: await startReplay(getAppContext(), body) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
