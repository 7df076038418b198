import { AiSdkModeRequestSchema } from '@/lib/contract/attach-ai-sdk';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** Sets the mode an AI SDK app's next calls start in: run, step, or breakpoints (lib/server/attach/ai-sdk-apps.ts). */
export async function POST(request: Request): Promise<Response> {
  try {
    const { name, mode } = await readJsonBody({ request, schema: AiSdkModeRequestSchema });
    return Response.json({ app: getAppContext().aiSdkApps.setMode(name, mode) });
  } catch (error) {
    return errorResponse(error);
  }
}
