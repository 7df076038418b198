/**
 * What the HTTP server's own answers in front of Next share (otlp-fast-path.ts for the OTLP and
 * genkit telemetry doors, runs-fast-path.ts for POST /api/runs, runtimes-fast-path.ts for GET
 * /api/runtimes, events-fast-path.ts for the event stream): which request this is, the request
 * guard of proxy.ts read from a Node request, and the API's JSON and error answers.
 */
import type { IncomingMessage } from 'node:http';
import type { ApiErrorBody } from '../../contract/api-error';
import { LoopscopeError } from '../../errors';
import { guardRequest, type GuardConfig, type GuardVerdict } from './request-guard';
import { sessionCookieName } from './session-cookie';
import type { DirectAnswer } from './start-http-servers';

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

/** The path of a GET (without its query), or undefined for any other method. */
export function getPathname(request: IncomingMessage): string | undefined {
  if (request.method !== 'GET') return undefined;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** A JSON answer (the HTTP server adds the security headers and the length). */
export function jsonAnswer(status: number, payload: unknown): DirectAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) };
}

/** A thrown value as the API's error answer (lib/server/http/http.ts's `errorResponse`, for a Node response). */
export function errorAnswer(error: unknown): DirectAnswer {
  if (LoopscopeError.isInstance(error)) {
    const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
    return jsonAnswer(error.httpStatus, body);
  }
  console.error('loopscope: unexpected error', error);
  const body: ApiErrorBody = { error: { code: 'INTERNAL', message: 'Internal error; see the server log.' } };
  return jsonAnswer(500, body);
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
