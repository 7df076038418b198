import { LoopscopeError } from '../../errors';
import type { TraceStore } from '../../store/trace-store';
import type { EventBus } from '../live/event-bus';
import { partialSuccessProtobuf, type IngestGate } from './ingest-gate';
import { ingestSpans } from './ingest-spans';
import { otlpErrorBody } from './otlp-error';
import type { OtlpForwarder } from './otlp-forwarder';
import { decodeOtlpRequestPartially } from './otlp-receiver';

/** The parts of the app context an export passes through. */
export interface OtlpReceiverContext {
  store: Pick<TraceStore, 'queueAppend'>;
  bus: Pick<EventBus, 'publish'>;
  ingestGate: IngestGate;
  forwarder?: Pick<OtlpForwarder, 'forward'>;
}

/** One export as it came: its bytes (read whole, within OTLP_MAX_BODY_BYTES) and the two headers that say how to read them. */
export interface OtlpExport {
  body: Uint8Array;
  contentType: string | null;
  contentEncoding: string | null;
}

/** The receiver's answer, ready for any HTTP layer: the body is encoded and Content-Length is set. */
export interface OtlpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

const encoder = new TextEncoder();

function answer(status: number, { body, contentType, headers }: { body: Uint8Array; contentType: string; headers?: Record<string, string> }): OtlpAnswer {
  // A Content-Length on a small body also keeps Next's response compression (it gzips bodies of
  // unknown length, ~1 ms of zlib setup for `{}`) off the receiver's answers.
  return { status, headers: { 'content-type': contentType, 'content-length': String(body.byteLength), ...headers }, body };
}

/** An OTLP/HTTP error answer: `{code, message}` (google.rpc.Status), as the spec asks. */
export function otlpErrorAnswer(status: number, { message, headers }: { message: string; headers?: Record<string, string> }): OtlpAnswer {
  return answer(status, { body: encoder.encode(JSON.stringify(otlpErrorBody(status, message))), contentType: 'application/json', headers });
}

/** The answer for an error thrown on the way in: a LoopscopeError's own status, anything else a 500 whose detail stays in the server log. */
export function otlpAnswerForError(error: unknown): OtlpAnswer {
  if (LoopscopeError.isInstance(error)) return otlpErrorAnswer(error.httpStatus, { message: error.message });
  console.error('loopscope: OTLP receiver failed', error);
  return otlpErrorAnswer(500, { message: 'The spans could not be stored; see the server log.' });
}

/**
 * The OTLP/HTTP trace receiver behind every door (the Next route and the HTTP server's own
 * fast path, lib/server/http/otlp-fast-path.ts): one export decoded once (JSON or protobuf,
 * optionally gzipped), stored, published once, forwarded. Malformed spans among good ones are
 * rejected alone (200 with the spec's partial success, in the request's encoding); nothing
 * good is a 400; a receiver already storing its bound of bytes answers 503 with Retry-After.
 * Never throws: every failure is an answer.
 */
export async function receiveOtlpExport(context: OtlpReceiverContext, received: OtlpExport): Promise<OtlpAnswer> {
  const pass = context.ingestGate.enter(received.body.byteLength);
  if (!pass.ok) {
    return otlpErrorAnswer(503, {
      message: `Loopscope is storing ${Math.round(pass.inFlightBytes / 1_048_576)} MiB of spans already; retry after ${pass.retryAfterSeconds} s.`,
      headers: { 'retry-after': String(pass.retryAfterSeconds) },
    });
  }
  try {
    const { spans, rejected, firstProblem } = decodeOtlpRequestPartially(received);
    await ingestSpans(context, spans);
    // Stored here first; then upstream gets the export as it came (the answer does not wait for it).
    context.forwarder?.forward({ body: received.body, contentType: received.contentType ?? 'application/json', contentEncoding: received.contentEncoding ?? undefined, spans: spans.length + rejected });
    const message = rejected > 0 ? `${rejected} span(s) rejected, the others stored; the first: ${firstProblem}` : '';
    // An empty ExportTraceServiceResponse is full success; partial_success names what was rejected.
    if ((received.contentType ?? '').includes('protobuf')) {
      return answer(200, { body: rejected > 0 ? partialSuccessProtobuf(rejected, message) : new Uint8Array(), contentType: 'application/x-protobuf' });
    }
    const body = rejected > 0 ? encoder.encode(JSON.stringify({ partialSuccess: { rejectedSpans: rejected, errorMessage: message } })) : encoder.encode('{}');
    return answer(200, { body, contentType: 'application/json' });
  } catch (error) {
    return otlpAnswerForError(error);
  } finally {
    pass.leave();
  }
}
