import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { readBodyLimited } from '@/lib/server/http';
import { partialSuccessProtobuf } from '@/lib/server/ingest-gate';
import { otlpErrorBody } from '@/lib/server/otlp-error';
import { decodeOtlpRequestPartially, OTLP_MAX_BODY_BYTES } from '@/lib/server/otlp-receiver';
import { ingestSpans } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

function otlpError(status: number, answer: { message: string; headers?: Record<string, string> }): Response {
  return Response.json(otlpErrorBody(status, answer.message), { status, headers: answer.headers });
}

/**
 * The OTLP/HTTP trace receiver: any OpenTelemetry exporter can send here (JSON or protobuf).
 * Malformed spans among good ones are rejected alone (200 with the spec's partial success);
 * a receiver already storing its bound of bytes answers 503 with Retry-After.
 */
export async function POST(request: Request): Promise<Response> {
  const context = getAppContext();
  let leave = () => {};
  try {
    const body = await readBodyLimited(request, OTLP_MAX_BODY_BYTES);
    const pass = context.ingestGate.enter(body.byteLength);
    if (!pass.ok) {
      return otlpError(503, { message: `Loopscope is storing ${Math.round(pass.inFlightBytes / 1_048_576)} MiB of spans already; retry after ${pass.retryAfterSeconds} s.`, headers: { 'retry-after': String(pass.retryAfterSeconds) } });
    }
    leave = pass.leave;
    const contentType = request.headers.get('content-type');
    const { spans, rejected, firstProblem } = decodeOtlpRequestPartially({ contentType, contentEncoding: request.headers.get('content-encoding'), body });
    await ingestSpans(context, spans);
    // Stored here first; then upstream gets the export as it came (the answer does not wait for it).
    context.forwarder?.forward({ body, contentType: contentType ?? 'application/json', contentEncoding: request.headers.get('content-encoding') ?? undefined, spans: spans.length + rejected });
    const protobuf = (contentType ?? '').includes('protobuf');
    const message = rejected > 0 ? `${rejected} span(s) rejected, the others stored; the first: ${firstProblem}` : '';
    // An empty ExportTraceServiceResponse is full success; partial_success names what was rejected.
    if (protobuf) {
      return new Response(rejected > 0 ? partialSuccessProtobuf(rejected, message) : new Uint8Array(), { status: 200, headers: { 'content-type': 'application/x-protobuf' } });
    }
    return Response.json(rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage: message } } : {}, { status: 200 });
  } catch (error) {
    if (LoopscopeError.isInstance(error)) return otlpError(error.httpStatus, { message: error.message });
    console.error('loopscope: OTLP receiver failed', error);
    return otlpError(500, { message: 'The spans could not be stored; see the server log.' });
  } finally {
    leave();
  }
}
