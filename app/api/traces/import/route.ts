import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { IMPORT_MAX_BODY_BYTES } from '@/lib/server/body-limits';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { ingestSpans } from '@/lib/server/run-service';
import { parseTraceText } from '@/lib/trace/load-trace-file';

export const dynamic = 'force-dynamic';

const ImportRequestSchema = z.object({
  /** The file's name, only used in error messages. */
  fileName: z.string().min(1).max(300),
  /** The file's text: OTLP JSON (object or JSONL) or a Genkit Dev UI TraceData file. */
  text: z.string().min(1),
});

/** Imports a trace file picked in the page into the captured traces. Bad files are refused whole. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { fileName, text } = await readJsonBody(request, ImportRequestSchema, IMPORT_MAX_BODY_BYTES);
    const spans = parseTraceText(text, fileName);
    await ingestSpans(getAppContext(), spans);
    const traceIds = [...new Set(spans.map((span) => span.traceId))];
    return Response.json({ traceIds, spanCount: spans.length }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
