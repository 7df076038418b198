import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/** Captured traces, newest first, from the store's index. */
export async function GET(): Promise<Response> {
  try {
    return Response.json({ traces: await getAppContext().store.list() });
  } catch (error) {
    return errorResponse(error);
  }
}
