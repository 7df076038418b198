import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

const SaveRequestSchema = z.object({
  traceIds: z.array(z.string().regex(/^[0-9a-f]{32}$/, 'trace ids are 32 hex characters')).min(1).max(100),
  name: z.string().min(1).max(100),
  overwrite: z.boolean().optional(),
});

/** Saves captured traces as a named OTLP JSON file in traces/. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody(request, SaveRequestSchema);
    return Response.json(await getAppContext().store.save(body), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
