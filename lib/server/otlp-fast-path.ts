import type { IncomingMessage } from 'node:http';
import { OTLP_MAX_BODY_BYTES } from './body-limits';
import { otlpAnswerForError, receiveOtlpExport, type OtlpAnswer, type OtlpReceiverContext } from './receive-otlp-export';
import { readNodeBody } from './read-node-body';
import { guardRequest, type GuardConfig } from './request-guard';
import type { TraceArrivals } from './attach/trace-arrivals';
import { GENKIT_LOGS_PATH, GENKIT_ROOT_LOGS_PATH, GENKIT_ROOT_TRACES_PATH, GENKIT_TRACES_PATH, isGenkitLogsPath, isGenkitTracesPath, receiveGenkitLogs, receiveGenkitTraceData } from './attach/genkit-telemetry';

/** The receivers this door answers: OTLP/HTTP, and genkit's telemetry-server API (attached apps). */
const RECEIVER_PATHS = new Set(['/v1/traces', GENKIT_TRACES_PATH, GENKIT_LOGS_PATH, GENKIT_ROOT_TRACES_PATH, GENKIT_ROOT_LOGS_PATH]);

function jsonAnswer(status: number, payload: unknown): OtlpAnswer {
  const body = Buffer.from(JSON.stringify(payload));
  return { status, headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) }, body };
}

const header = (request: IncomingMessage, name: string): string | null => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
};

/**
 * The OTLP receiver answered by Loopscope's HTTP server itself (scripts/start.js), in front of
 * Next: `POST /v1/traces` would otherwise pass Next's proxy (which buffers and re-streams the
 * body), its routing, its Web Request and Response adapters and its response compression — in
 * a profile of bench/ingest-throughput.ts about three quarters of the server's CPU per export.
 * The request meets the same guard as in proxy.ts (Host, Origin, token; `guardRequest`), the
 * same body limit and the same `receiveOtlpExport` as the Next route (app/v1/traces).
 *
 * @param options.context the app context if it exists (made by Next's instrumentation at
 *   start); until then requests go on to Next, which makes it.
 * @returns a function that takes a request and answers it, or returns undefined for a request
 *   that is not an OTLP export (Next answers it).
 */
export function createOtlpFastPath(options: { context: () => (OtlpReceiverContext & { attachment?: { arrivals: TraceArrivals } }) | undefined; guard: GuardConfig }): (request: IncomingMessage) => Promise<OtlpAnswer> | undefined {
  return (request) => {
    if (request.method !== 'POST') return undefined;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    if (!RECEIVER_PATHS.has(pathname)) return undefined;
    const context = options.context();
    if (!context) return undefined;
    const verdict = guardRequest(
      {
        method: 'POST',
        pathname,
        host: header(request, 'host'),
        origin: header(request, 'origin'),
        authorization: header(request, 'authorization'),
        // The receiver never reads these: a query token counts only on the event stream, the
        // session cookie (and the Fetch Metadata that qualifies it) only on /api.
        queryToken: null,
        sessionCookie: null,
        secFetchSite: null,
      },
      options.guard,
    );
    // The proxy's refusal, word for word (proxy.ts).
    if (!verdict.ok) return Promise.resolve(jsonAnswer(verdict.status, { error: { code: verdict.status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', message: verdict.message } }));
    return readNodeBody(request, OTLP_MAX_BODY_BYTES).then(
      (body) =>
        isGenkitTracesPath(pathname)
          ? receiveGenkitTraceData(context, body)
          : isGenkitLogsPath(pathname)
            ? receiveGenkitLogs()
            : receiveOtlpExport(context, { body, contentType: header(request, 'content-type'), contentEncoding: header(request, 'content-encoding') }),
      (error: unknown) => {
        const answer = otlpAnswerForError(error);
        if (answer.status === 413) answer.headers.connection = 'close';
        return answer;
      },
    );
  };
}
