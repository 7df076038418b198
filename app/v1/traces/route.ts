import { getAppContext } from '@/lib/server/app-context';
import { readBodyLimited } from '@/lib/server/http/http';
import { OTLP_MAX_BODY_BYTES } from '@/lib/server/ingest/otlp-receiver';
import { otlpAnswerForError, receiveOtlpExport, type OtlpAnswer } from '@/lib/server/ingest/receive-otlp-export';

export const dynamic = 'force-dynamic';

function toResponse(answer: OtlpAnswer): Response {
  return new Response(answer.body as Uint8Array<ArrayBuffer>, { status: answer.status, headers: answer.headers });
}

/**
 * The OTLP/HTTP trace receiver: any OpenTelemetry exporter can send here (JSON or protobuf).
 * Under `npm start` the HTTP server answers POST /v1/traces itself (lib/server/http/otlp-fast-path.ts)
 * and this route serves the other ways of running Next; both call `receiveOtlpExport`.
 */
export async function POST(request: Request): Promise<Response> {
  let body: Uint8Array;
  try {
    body = await readBodyLimited(request, OTLP_MAX_BODY_BYTES);
  } catch (error) {
    return toResponse(otlpAnswerForError(error));
  }
  return toResponse(await receiveOtlpExport(getAppContext(), { body, contentType: request.headers.get('content-type'), contentEncoding: request.headers.get('content-encoding') }));
}
