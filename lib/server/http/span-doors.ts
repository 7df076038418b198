/**
 * The doors spans come in through: OTLP/HTTP (`POST /v1/traces`) and genkit's telemetry-server
 * API of an attached app (`POST /genkit/api/traces`, `/genkit/api/otlp`, and the same paths
 * without `/genkit`, where genkit Python posts). One list for the HTTP server's fast path
 * (otlp-fast-path.ts) and its body limit (body-limits.ts): a door the fast path answers takes
 * what the OTLP door takes. Before they shared it, the genkit doors refused a declared
 * Content-Length over the 1 MiB API limit while reading up to 32 MiB, and genkit's exporter,
 * which never looks at the answer, dropped every span over 1 MiB without a word.
 */
import { isGenkitLogsPath, isGenkitTracesPath } from '../attach/genkit-telemetry-paths';

export const OTLP_TRACES_PATH = '/v1/traces';

/** True when the request posts spans (or genkit's logs) to one of the receiver's doors. */
export function isSpanDoor(request: { method: string | undefined; pathname: string }): boolean {
  if (request.method !== 'POST') return false;
  return request.pathname === OTLP_TRACES_PATH || isGenkitTracesPath(request.pathname) || isGenkitLogsPath(request.pathname);
}
