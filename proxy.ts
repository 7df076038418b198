import { NextResponse, type NextRequest } from 'next/server';
import { guardRequest, refusalBody } from './lib/server/http/request-guard';
import { createNonce, securityHeaders } from './lib/server/http/security-headers';
import { serverPort, serverToken } from './lib/server/http/server-config';
import { sessionCookieName } from './lib/server/http/session-cookie';

/**
 * Every request passes the security model of docs/security-model.md before anything else runs:
 * Host allow-list (DNS rebinding), Origin check, credentials on /api and /v1/traces; and
 * every response carries the security headers, with a fresh CSP nonce per request.
 * No matcher on purpose: static assets and 404s get the checks and the headers too.
 */
export function proxy(request: NextRequest) {
  const port = serverPort();
  const verdict = guardRequest(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      host: request.headers.get('host'),
      origin: request.headers.get('origin'),
      authorization: request.headers.get('authorization'),
      queryToken: request.nextUrl.searchParams.get('token'),
      sessionCookie: request.cookies.get(sessionCookieName(port))?.value ?? null,
      secFetchSite: request.headers.get('sec-fetch-site'),
    },
    { port, token: serverToken(), extraHost: process.env.LOOPSCOPE_EXTRA_HOST },
  );
  const nonce = createNonce();
  const headers = securityHeaders(nonce);
  let response: NextResponse;
  if (verdict.ok) {
    // Next reads the nonce from the request's CSP header and puts it on the scripts it
    // renders (its CSP guide): the header goes on the request as well as the response.
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set('content-security-policy', headers['Content-Security-Policy']);
    response = NextResponse.next({ request: { headers: requestHeaders } });
  } else {
    response = NextResponse.json(refusalBody(verdict), { status: verdict.status });
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
