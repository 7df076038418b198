/**
 * What the HTTP server's own answers in front of Next share (otlp-fast-path.ts for the OTLP and
 * genkit telemetry doors, runs-fast-path.ts for POST /api/runs, events-fast-path.ts for the
 * event stream): which request this is, and the request guard of proxy.ts read from a Node request.
 */
import type { IncomingMessage } from 'node:http';
import { guardRequest, type GuardConfig, type GuardVerdict } from './request-guard';
import { sessionCookieName } from './session-cookie';

/** A request header as one string, or null (absent or repeated). */
export function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

/** The path of a POST (without its query), or undefined for any other method. */
export function postPathname(request: IncomingMessage): string | undefined {
  if (request.method !== 'POST') return undefined;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** One cookie's value from a `Cookie` header (as Next's `request.cookies.get` reads it), or null. */
function cookieValue(cookieHeader: string | null, name: string): string | null {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return null;
}

/**
 * proxy.ts's guard for a request the HTTP server answers itself. A query token counts only on
 * the event stream (`queryToken`, a GET); `session` says whether the page's session cookie (with
 * the Fetch Metadata that qualifies it) may stand in for the token, as on every /api route.
 */
export function guardDirect(options: { request: IncomingMessage; pathname: string; guard: GuardConfig; session: boolean; queryToken?: string | null }): GuardVerdict {
  const { request, guard, session } = options;
  return guardRequest(
    {
      method: request.method ?? 'GET',
      pathname: options.pathname,
      host: headerOf(request, 'host'),
      origin: headerOf(request, 'origin'),
      authorization: headerOf(request, 'authorization'),
      queryToken: options.queryToken ?? null,
      sessionCookie: session ? cookieValue(headerOf(request, 'cookie'), sessionCookieName(guard.port)) : null,
      secFetchSite: session ? headerOf(request, 'sec-fetch-site') : null,
    },
    guard,
  );
}
