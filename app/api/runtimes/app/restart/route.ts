import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { restartApp } from '@/lib/server/attach/attach-service';

export const dynamic = 'force-dynamic';

/** Restarts the app `loopscope start -- <cmd>` runs (it re-registers with a new runtime id). */
export async function POST(): Promise<Response> {
  try {
    return Response.json({ app: await restartApp(getAppContext().attachment) });
  } catch (error) {
    return errorResponse(error);
  }
}
