import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';
import { encodeOtlpJson } from '@/lib/trace/otlp-json';

export const dynamic = 'force-dynamic';

/** One span of a saved file, as OTLP JSON: what the detail panel needs for a selected node. */
export async function GET(_request: Request, context: { params: Promise<{ file: string; traceId: string; spanId: string }> }): Promise<Response> {
  try {
    const { file, traceId, spanId } = await context.params;
    const span = await getAppContext().savedGraphs.span(decodeURIComponent(file), traceId, spanId);
    if (!span) throw new LoopscopeError('NOT_FOUND', `No span ${spanId} of trace ${traceId} in ${file}.`);
    return Response.json(encodeOtlpJson([span]));
  } catch (error) {
    return errorResponse(error);
  }
}
