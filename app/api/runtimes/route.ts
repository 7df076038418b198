import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { listRuntimes } from '@/lib/server/attach/attach-service';
import type { RuntimesResponse } from '@/lib/contract/runtimes';

export const dynamic = 'force-dynamic';

/** The attached genkit runtimes with their actions, and the app `loopscope start -- <cmd>` runs. */
export async function GET(): Promise<Response> {
  try {
    const body: RuntimesResponse = await listRuntimes(getAppContext().attachment);
    return Response.json(body);
  } catch (error) {
    return errorResponse(error);
  }
}
