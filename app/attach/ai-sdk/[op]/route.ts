import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { answerAiSdkDoor } from '@/lib/server/attach/ai-sdk-door';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** `loopscope/ai-sdk` inside a developer's app asks here (lib/server/attach/ai-sdk-door.ts). */
export async function POST(request: Request, context: { params: Promise<{ op: string }> }): Promise<Response> {
  try {
    const { op } = await context.params;
    const body = await readJsonBody({ request, schema: z.unknown() });
    const app = getAppContext();
    const credentials = { appSecret: app.attachment.appSecret, apiToken: app.config.token };
    return Response.json(await answerAiSdkDoor({ apps: app.aiSdkApps, credentials, op, authorization: request.headers.get('authorization'), body }));
  } catch (error) {
    return errorResponse(error);
  }
}
