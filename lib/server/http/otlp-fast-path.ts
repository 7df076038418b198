import type { IncomingMessage } from 'node:http';
import { OTLP_MAX_BODY_BYTES } from './body-limits';
import { otlpAnswerForError, receiveOtlpExport, type OtlpAnswer, type OtlpReceiverContext } from '../ingest/receive-otlp-export';
import { readNodeBody } from './read-node-body';
import { guardDirect, headerOf, postPathname } from './fast-path-request';
import { refusalBody, type GuardConfig } from './request-guard';
import type { TraceArrivals } from '../attach/trace-arrivals';
import { isGenkitLogsPath, isGenkitTracesPath, receiveGenkitLogs, receiveGenkitTraceData } from '../attach/genkit-telemetry';
import { isSpanDoor } from './span-doors';

function jsonAnswer(status: number, payload: unknown): OtlpAnswer {
  const body = Buffer.from(JSON.stringify(payload));
  return { status, headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) }, body };
}

/**
 * The OTLP receiver answered by Loopscope's HTTP server itself (scripts/start.js), in front of
 * Next: `POST /v1/traces` would otherwise pass Next's proxy (which buffers and re-streams the
 * body), its routing, its Web Request and Response adapters and its response compression — in
 * a profile of bench/ingest-throughput.bench.ts about three quarters of the server's CPU per export.
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
    const pathname = postPathname(request);
    // The receivers this door answers: OTLP/HTTP, and genkit's telemetry-server API (attached apps).
    if (pathname === undefined || !isSpanDoor({ method: request.method, pathname })) return undefined;
    const context = options.context();
    if (!context) return undefined;
    // The receiver never takes the session cookie: a page cannot export spans.
    const verdict = guardDirect({ request, pathname, guard: options.guard, session: false });
    if (!verdict.ok) {
      // Refused before its body was read: close the connection after the answer, or the unread
      // body would be taken for the next request on it.
      const refused = jsonAnswer(verdict.status, refusalBody(verdict));
      refused.headers.connection = 'close';
      return Promise.resolve(refused);
    }
    return readNodeBody(request, OTLP_MAX_BODY_BYTES).then(
      (body) =>
        isGenkitTracesPath(pathname)
          ? receiveGenkitTraceData(context, body)
          : isGenkitLogsPath(pathname)
            ? receiveGenkitLogs()
            : receiveOtlpExport(context, { body, contentType: headerOf(request, 'content-type'), contentEncoding: headerOf(request, 'content-encoding') }),
      (error: unknown) => {
        const answer = otlpAnswerForError(error);
        if (answer.status === 413) answer.headers.connection = 'close';
        return answer;
      },
    );
  };
}
