import { TraceDeleteRequestSchema } from '@/lib/contract/trace-list';
import { getAppContext } from '@/lib/server/app-context';
import { deleteTraces } from '@/lib/server/traces/delete-traces';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** Deletes captured traces — `{traceIds}` or `{all: true}` — never the saved files in traces/. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: TraceDeleteRequestSchema });
    return Response.json(await deleteTraces(getAppContext(), body));
  } catch (error) {
    return errorResponse(error);
  }
}
