import { SaveTraceRequestSchema, type SaveTraceResponse } from '@/lib/contract/trace-files';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** Saves captured traces as a named OTLP JSON file in traces/. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: SaveTraceRequestSchema });
    const answer: SaveTraceResponse = await getAppContext().store.save(body);
    return Response.json(answer, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
