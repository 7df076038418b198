import { UpdateProviderRequestSchema } from '@/lib/contract/provider';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** The real-model setting: the endpoint (never its key: only whether one is set), Gemini, the picker's default. */
export async function GET(): Promise<Response> {
  return Response.json(getAppContext().providers.settings());
}

/** Sets or clears the OpenAI-compatible endpoint (and its key); the runners are replaced with it. */
export async function POST(request: Request): Promise<Response> {
  try {
    const update = await readJsonBody({ request, schema: UpdateProviderRequestSchema });
    return Response.json(getAppContext().providers.update(update));
  } catch (error) {
    return errorResponse(error);
  }
}
