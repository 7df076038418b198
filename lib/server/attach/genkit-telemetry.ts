/**
 * Loopscope's genkit telemetry-server door: what a genkit runtime started with
 * GENKIT_TELEMETRY_SERVER=<Loopscope>/genkit sends. genkit JS 1.42's `TraceServerExporter`
 * POSTs `<url>/api/traces` with one `TraceData` document per export (`{traceId, spans: {id:
 * SpanData}}`; in dev mode genkit uses a SimpleSpanProcessor, so one span per request, sent when
 * it ends), and its `LogServerExporter` POSTs OTLP logs to `<url>/api/otlp`. The spans are read
 * by the TraceData reader Loopscope uses for Dev UI files, marked as captured through this door,
 * and stored like any export; logs are accepted and dropped (Loopscope shows no logs).
 */
import { LoopscopeError } from '../../errors';
import { genkitTraceDataWriterOf } from '../../runtimes/genkit-reflection/trace-data-writer';
import { decodeGenkitTraceData } from '../../spans/genkit-trace-data';
import { CAPTURED_THROUGH_ATTRIBUTE, CAPTURED_THROUGH_GENKIT_TELEMETRY } from '../../spans/loopscope-attributes';
import { parseJsonLimited } from '../../spans/parse-json-limited';
import { ingestSpans } from '../ingest/ingest-spans';
import { otlpAnswerForError, type OtlpAnswer, type OtlpReceiverContext } from '../ingest/receive-otlp-export';
import type { TraceArrivals } from './trace-arrivals';

export { GENKIT_LOGS_PATH, GENKIT_ROOT_LOGS_PATH, GENKIT_ROOT_TRACES_PATH, GENKIT_TRACES_PATH, isGenkitLogsPath, isGenkitTracesPath } from './genkit-telemetry-paths';

const encoder = new TextEncoder();
const json = (status: number, payload: unknown): OtlpAnswer => {
  const body = encoder.encode(JSON.stringify(payload));
  return { status, headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) }, body };
};

/** Stores one TraceData export; never throws (a bad body is a 400 naming its problem). */
export async function receiveGenkitTraceData(context: OtlpReceiverContext & { attachment?: { arrivals: TraceArrivals } }, body: Uint8Array): Promise<OtlpAnswer> {
  const pass = context.ingestGate.enter(body.byteLength);
  if (!pass.ok) return json(503, { error: `Loopscope is busy storing spans; retry after ${pass.retryAfterSeconds} s.` });
  try {
    const value = parseJsonLimited(new TextDecoder().decode(body), { what: 'The TraceData body' });
    // Go and Python apps send TraceData too: their spans are told by shape (Go's status codes differ).
    const spans = decodeGenkitTraceData(value, { writerOf: genkitTraceDataWriterOf });
    for (const span of spans) span.resource[CAPTURED_THROUGH_ATTRIBUTE] = CAPTURED_THROUGH_GENKIT_TELEMETRY;
    await ingestSpans(context, spans);
    context.attachment?.arrivals.note(spans);
    return json(200, {});
  } catch (error) {
    if (LoopscopeError.isInstance(error)) return json(error.httpStatus, { error: error.message });
    return otlpAnswerForError(error);
  } finally {
    pass.leave();
  }
}

/** genkit's log export: accepted (so the app logs no failures) and dropped. */
export function receiveGenkitLogs(): OtlpAnswer {
  return json(200, {});
}
