import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { savedFileRepro } from '@/lib/server/services/repro-service';

export const dynamic = 'force-dynamic';

/** A standalone program that reproduces a saved file's run (lib/server/services/repro-service.ts), as a download. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await context.params;
    const { fileName, text } = await savedFileRepro(getAppContext(), decodeURIComponent(file));
    return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${fileName}"` } });
  } catch (error) {
    return errorResponse(error);
  }
}
