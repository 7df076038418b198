import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { getRuntimes } from '@/lib/server/services/get-runtimes';

export const dynamic = 'force-dynamic';

/**
 * The attached genkit runtimes with their actions, the AI SDK apps using `loopscope/ai-sdk`, and
 * the app `loopscope start -- <cmd>` runs (lib/server/services/get-runtimes.ts). The HTTP server
 * answers this itself once the app context exists (lib/server/http/runtimes-fast-path.ts); this
 * route answers what reaches Next before that.
 */
export async function GET(): Promise<Response> {
  try {
    return Response.json(await getRuntimes(getAppContext()));
  } catch (error) {
    return errorResponse(error);
  }
}
