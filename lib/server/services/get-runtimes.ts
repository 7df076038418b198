import type { RuntimesResponse } from '../../contract/runtimes';
import type { AppContext } from '../app-context-ports';
import { listRuntimes } from '../attach/attach-service';

/**
 * GET /api/runtimes once its guard passed: the attached genkit runtimes with their actions, the
 * AI SDK apps using `loopscope/ai-sdk`, and the app `loopscope start -- <cmd>` runs. One function
 * for both doors: the Next route (app/api/runtimes) and the HTTP server's fast path
 * (runtimes-fast-path.ts).
 */
export async function getRuntimes(context: Pick<AppContext, 'attachment' | 'aiSdkApps'>): Promise<RuntimesResponse> {
  return { ...(await listRuntimes(context.attachment)), aiSdkApps: context.aiSdkApps.list() };
}
