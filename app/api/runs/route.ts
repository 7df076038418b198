import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { StartRunRequestSchema } from '@/lib/contract/run-session';
import { startRun } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ runs: getAppContext().runs.list() });
}

/** Starts a scenario run; answers at once, progress arrives on the event stream. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { scenario, mode, provider } = await readJsonBody({ request, schema: StartRunRequestSchema });
    return Response.json({ run: await startRun({ context: getAppContext(), scenario, mode, provider }) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
