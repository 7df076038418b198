import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { loadTraceById } from '@/lib/server/traces/load-captured-trace';
import { encodeOtlpJson } from '@/lib/spans/otlp-json';

export const dynamic = 'force-dynamic';

/** One trace as OTLP JSON (captured, or from a saved file that holds it). */
export async function GET(_request: Request, context: { params: Promise<{ traceId: string }> }): Promise<Response> {
  try {
    const { traceId } = await context.params;
    return Response.json(encodeOtlpJson(await loadTraceById(getAppContext(), traceId)));
  } catch (error) {
    return errorResponse(error);
  }
}
