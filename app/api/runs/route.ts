import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { postRuns, PostRunsBodySchema } from '@/lib/server/services/post-runs';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ runs: getAppContext().runs.list() });
}

/**
 * Starts a scenario run or runs an attached app's action (lib/server/services/post-runs.ts). The HTTP
 * server answers this itself once the app context exists (lib/server/http/runs-fast-path.ts); this
 * route answers what reaches Next before that.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const value = await readJsonBody({ request, schema: PostRunsBodySchema });
    const { status, payload } = await postRuns({ context: getAppContext(), value });
    return Response.json(payload, { status });
  } catch (error) {
    return errorResponse(error);
  }
}
