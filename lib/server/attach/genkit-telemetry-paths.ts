/**
 * Where genkit's telemetry exporters post (an app started with
 * GENKIT_TELEMETRY_SERVER=<Loopscope>/genkit): kept apart from the door's code
 * (genkit-telemetry.ts) so that the HTTP server's body limit (body-limits.ts) can name these
 * paths without loading the span readers.
 */
import { GENKIT_TELEMETRY_PREFIX } from './app-environment';

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
