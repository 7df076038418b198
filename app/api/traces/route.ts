import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';
import { listTraces } from '@/lib/server/list-traces';

export const dynamic = 'force-dynamic';

/** Captured traces, newest first, from the store's index, with their answered / paused status. */
export async function GET(): Promise<Response> {
  try {
    return Response.json({ traces: await listTraces(getAppContext()) });
  } catch (error) {
    return errorResponse(error);
  }
}
