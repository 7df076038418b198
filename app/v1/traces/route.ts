import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { readBodyLimited } from '@/lib/server/http';
import { otlpErrorBody } from '@/lib/server/otlp-error';
import { decodeOtlpRequest, OTLP_MAX_BODY_BYTES } from '@/lib/server/otlp-receiver';
import { ingestSpans } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

function otlpError(status: number, message: string): Response {
  return Response.json(otlpErrorBody(status, message), { status });
}

/** The OTLP/HTTP trace receiver: any OpenTelemetry exporter can send here (JSON or protobuf). */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readBodyLimited(request, OTLP_MAX_BODY_BYTES);
    const spans = decodeOtlpRequest({
      contentType: request.headers.get('content-type'),
      contentEncoding: request.headers.get('content-encoding'),
      body,
    });
    const context = getAppContext();
    await ingestSpans(context, spans);
    // Stored here first; then upstream gets the export as it came (the answer does not wait for it).
    context.forwarder?.forward({ body, contentType: request.headers.get('content-type') ?? 'application/json', contentEncoding: request.headers.get('content-encoding') ?? undefined, spans: spans.length });
    const protobuf = (request.headers.get('content-type') ?? '').includes('protobuf');
    // An empty ExportTraceServiceResponse: full success.
    return protobuf
      ? new Response(new Uint8Array(), { status: 200, headers: { 'content-type': 'application/x-protobuf' } })
      : Response.json({}, { status: 200 });
  } catch (error) {
    if (LoopscopeError.isInstance(error)) return otlpError(error.httpStatus, error.message);
    console.error('loopscope: OTLP receiver failed', error);
    return otlpError(500, 'The spans could not be stored; see the server log.');
  }
}
