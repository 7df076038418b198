import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** Graph JSON of a saved file (all its traces as one session), cached per file version. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await context.params;
    const text = await getAppContext().savedGraphs.graphJson(decodeURIComponent(file));
    return new Response(text, { headers: { 'content-type': 'application/json' } });
  } catch (error) {
    return errorResponse(error);
  }
}
