import { createHash, timingSafeEqual } from 'node:crypto';
import { sessionCookieValue } from './session-cookie';

export interface GuardRequest {
  method: string;
  pathname: string;
  host: string | null;
  origin: string | null;
  authorization: string | null;
  /** `?token=` — accepted only on the event stream, for scripts; the page uses its cookie. */
  queryToken: string | null;
  /** The value of this server's session cookie (session-cookie.ts), if the request carries it. */
  sessionCookie: string | null;
  /** The browser's `Sec-Fetch-Site` header: who caused the request (same-origin, same-site, cross-site, none). */
  secFetchSite: string | null;
}

export interface GuardConfig {
  port: number;
  token: string;
  /** A non-loopback name the server was deliberately bound to (--dangerously-expose-to-network). */
  extraHost?: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/** The answer to a request the guard turned away, as a JSON body (proxy.ts and the HTTP server's own answers). */
export function refusalBody(verdict: Extract<GuardVerdict, { ok: false }>): { error: { code: 'UNAUTHENTICATED' | 'PERMISSION_DENIED'; message: string } } {
  return { error: { code: verdict.status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', message: verdict.message } };
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values this server answers to: loopback names with our port (DNS-rebinding guard). */
export function allowedHosts(port: number): string[] {
  return LOOPBACK_NAMES.map((name) => `${name}:${port}`);
}

/** Constant-time comparison; digests first because timingSafeEqual throws on unequal lengths. */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(authorization: string | null): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match ? match[1].trim() : null;
}

/**
 * The security model of docs/security-model.md for one request: Host allow-list, Origin check,
 * credentials on every API route (the bearer token, or the page's session cookie on a
 * same-origin request), and the OTLP receiver's no-token rule for non-browser exporters.
 */
export function guardRequest(request: GuardRequest, config: GuardConfig): GuardVerdict {
  const hosts = allowedHosts(config.port);
  if (config.extraHost) hosts.push(`${config.extraHost.toLowerCase()}:${config.port}`);
  const host = (request.host ?? '').toLowerCase();
  if (!hosts.includes(host)) {
    return { ok: false, status: 403, message: `Host "${request.host ?? ''}" is not allowed: Loopscope answers only to ${hosts.join(', ')}.` };
  }
  if (request.origin !== null) {
    const origins = hosts.map((allowed) => `http://${allowed}`);
    if (!origins.includes(request.origin.toLowerCase())) {
      return { ok: false, status: 403, message: `Origin "${request.origin}" is not allowed: requests must come from Loopscope's own page.` };
    }
  }

  // The step middleware of an attached app (app/attach/step): its route checks the run's own
  // step token. A browser always sends Origin on a POST, so no page can knock here.
  if (request.pathname.startsWith('/attach/')) {
    return request.origin === null ? { ok: true } : { ok: false, status: 403, message: 'The step door is for an attached app, not for a web page.' };
  }
  const isApi = request.pathname === '/api' || request.pathname.startsWith('/api/');
  // OTLP/HTTP, and genkit's telemetry-server API under /genkit (GENKIT_TELEMETRY_SERVER of an attached app).
  // genkit Python posts to /api/traces and /api/otlp whatever the URL's path (urljoin): a POST there is that door (Loopscope's /api/traces is GET only).
  const isReceiver =
    request.pathname === '/v1/traces' || request.pathname === '/genkit/api/traces' || request.pathname === '/genkit/api/otlp' || (request.method === 'POST' && (request.pathname === '/api/traces' || request.pathname === '/api/otlp'));
  if (!isApi && !isReceiver) return { ok: true };

  const headerToken = bearerToken(request.authorization);
  const isEventStream = request.method === 'GET' && request.pathname === '/api/events';
  const given = headerToken ?? (isEventStream ? request.queryToken : null);

  if (isReceiver && given === null && request.origin === null) {
    // An exporter in another app sends no token. A browser always sends Origin on a
    // cross-origin POST and cannot remove it, so a page cannot use this door.
    return { ok: true };
  }
  if (given !== null) {
    // A token sent is a token checked, whatever else the request carries.
    return tokensMatch(given, config.token) ? { ok: true } : { ok: false, status: 401, message: 'The Loopscope token is wrong.' };
  }
  if (isApi && request.sessionCookie !== null) return checkSessionCookie(request, config);
  return { ok: false, status: 401, message: 'This route needs the Loopscope token (Authorization: Bearer <token>).' };
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The page's cookie counts only on requests the page itself made. SameSite=Strict is not
 * enough: another port on 127.0.0.1 is the same site, so its <img> or <script> would carry
 * the cookie. Fetch Metadata tells them apart; a request without it (not a browser, or one
 * too old to send it: Chromium < 76, Firefox < 90, Safari < 16.4) cannot prove where it
 * comes from, so its cookie is ignored and it needs the token like any script.
 */
function checkSessionCookie(request: GuardRequest, config: GuardConfig): GuardVerdict {
  const site = request.secFetchSite?.toLowerCase() ?? null;
  if (site === null) {
    return {
      ok: false,
      status: 401,
      message: "This route needs the Loopscope token (Authorization: Bearer <token>); the session cookie counts only on requests from Loopscope's page (Sec-Fetch-Site: same-origin).",
    };
  }
  if (site !== 'same-origin') {
    return { ok: false, status: 403, message: `This request (Sec-Fetch-Site: ${site}) cannot use the Loopscope session: only requests from Loopscope's own page can.` };
  }
  if (!SAFE_METHODS.has(request.method.toUpperCase()) && request.origin === null) {
    return { ok: false, status: 403, message: `A ${request.method} with the Loopscope session needs the Origin header of Loopscope's page.` };
  }
  if (config.token === '' || !tokensMatch(request.sessionCookie ?? '', sessionCookieValue(config.token))) {
    return { ok: false, status: 401, message: 'The Loopscope session has expired (the server restarted with a new token): open the URL of the start banner again.' };
  }
  return { ok: true };
}
