/**
 * Request body limits, written once: the route handlers enforce them while reading a body
 * (chunked bodies too), and the HTTP server (scripts/start.js) refuses a declared
 * Content-Length over them with 413 before any byte of the body is read.
 */
import { isSpanDoor } from './span-doors';

/** 1 MiB is plenty for any API body (scenario names, resume answers, save requests). */
export const API_MAX_BODY_BYTES = 1024 * 1024;

/** 32 MiB: far above a real OTLP batch (512 spans), far below what could hurt the server. */
export const OTLP_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** An imported trace file (JSON text inside `{fileName, text}`) may be as large as an OTLP export. */
export const IMPORT_MAX_BODY_BYTES = OTLP_MAX_BODY_BYTES;

/**
 * The largest answer Loopscope reads from an attached app's reflection server (its action list,
 * a run's output): as large as an OTLP export, the largest JSON Loopscope takes anywhere
 * (lib/server/attach/read-reflection-answer.ts).
 */
export const REFLECTION_MAX_ANSWER_BYTES = OTLP_MAX_BODY_BYTES;

/** Which door a request comes through decides both its limit and the shape of its error body. */
export interface BodyLimit {
  maxBytes: number;
  /** `otlp`: the OTLP receiver answers `{code, message}`; `api`: everything else answers `{error: {code, message}}`. */
  errorShape: 'otlp' | 'api';
}

/**
 * The body limit of the route a request leads to. Every span door (span-doors.ts: OTLP and
 * genkit's telemetry API) takes what the OTLP door takes. Unknown paths (pages, 404s) get the
 * API limit: nothing there takes a body, and a route with a larger limit is named here.
 */
export function bodyLimitFor(request: { method: string | undefined; pathname: string }): BodyLimit {
  if (isSpanDoor(request)) return { maxBytes: OTLP_MAX_BODY_BYTES, errorShape: 'otlp' };
  if (request.pathname === '/api/traces/import') return { maxBytes: IMPORT_MAX_BODY_BYTES, errorShape: 'api' };
  return { maxBytes: API_MAX_BODY_BYTES, errorShape: 'api' };
}
