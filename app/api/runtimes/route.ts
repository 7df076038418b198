import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { listRuntimes } from '@/lib/server/attach/attach-service';
import type { RuntimesResponse } from '@/lib/contract/runtimes';

export const dynamic = 'force-dynamic';

/** The attached genkit runtimes with their actions, the AI SDK apps using `loopscope/ai-sdk`, and the app `loopscope start -- <cmd>` runs. */
export async function GET(): Promise<Response> {
  try {
    const context = getAppContext();
    const body: RuntimesResponse = { ...(await listRuntimes(context.attachment)), aiSdkApps: context.aiSdkApps.list() };
    return Response.json(body);
  } catch (error) {
    return errorResponse(error);
  }
}
