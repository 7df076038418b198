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
import { genkitTraceDataWriterOf } from '../../dialects/genkit-reflection/trace-data-writer';
import { decodeGenkitTraceData } from '../../trace/genkit-trace-data';
import { CAPTURED_THROUGH_ATTRIBUTE, CAPTURED_THROUGH_GENKIT_TELEMETRY } from '../../trace/loopscope-attributes';
import { parseJsonLimited } from '../../trace/parse-json-limited';
import { ingestSpans } from '../ingest-spans';
import { otlpAnswerForError, type OtlpAnswer, type OtlpReceiverContext } from '../receive-otlp-export';
import { GENKIT_TELEMETRY_PREFIX } from './app-environment';
import type { TraceArrivals } from './trace-arrivals';

export const GENKIT_TRACES_PATH = `${GENKIT_TELEMETRY_PREFIX}/api/traces`;
export const GENKIT_LOGS_PATH = `${GENKIT_TELEMETRY_PREFIX}/api/otlp`;

/**
 * Where genkit Python 0.12 posts instead: it joins GENKIT_TELEMETRY_SERVER and `/api/traces`
 * with `urllib.parse.urljoin`, whose absolute path drops the URL's own (`…/genkit` →
 * `http://127.0.0.1:<port>/api/traces`; measured: "Failed to save trace …: HTTP Error 404").
 * genkit JS and Go append the path. Loopscope's own `/api/traces` is GET only, so its POST is
 * the genkit door too (request-guard.ts lets it in as a receiver, POST only).
 */
export const GENKIT_ROOT_TRACES_PATH = '/api/traces';
export const GENKIT_ROOT_LOGS_PATH = '/api/otlp';

/** True for the paths genkit's TraceData posts arrive at (with and without the `/genkit` prefix). */
export const isGenkitTracesPath = (pathname: string) => pathname === GENKIT_TRACES_PATH || pathname === GENKIT_ROOT_TRACES_PATH;
/** True for the paths genkit's log posts arrive at. */
export const isGenkitLogsPath = (pathname: string) => pathname === GENKIT_LOGS_PATH || pathname === GENKIT_ROOT_LOGS_PATH;

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
