import { ImportTraceRequestSchema, type ImportTraceResponse } from '@/lib/contract/trace-files';
import { getAppContext } from '@/lib/server/app-context';
import { IMPORT_MAX_BODY_BYTES } from '@/lib/server/http/body-limits';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { ingestSpans } from '@/lib/server/services/run-service';
import { parseTraceText } from '@/lib/store/load-trace-file';

export const dynamic = 'force-dynamic';

/** Imports a trace file picked in the page into the captured traces. Bad files are refused whole. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { fileName, text } = await readJsonBody({ request, schema: ImportTraceRequestSchema, maxBytes: IMPORT_MAX_BODY_BYTES });
    const spans = parseTraceText(text, fileName);
    await ingestSpans(getAppContext(), spans);
    const traceIds = [...new Set(spans.map((span) => span.traceId))];
    const answer: ImportTraceResponse = { traceIds, spanCount: spans.length };
    return Response.json(answer, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
