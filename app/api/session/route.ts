import { LoopscopeError } from '@/lib/errors';
import { errorResponse } from '@/lib/server/http/http';
import { bearerToken } from '@/lib/server/http/request-guard';
import { serverPort, serverToken } from '@/lib/server/http/server-config';
import { sessionSetCookieHeader } from '@/lib/server/http/session-cookie';

export const dynamic = 'force-dynamic';

/** 200 when the request is authenticated (the proxy answered 401 otherwise): the page's session check. */
export async function GET(): Promise<Response> {
  return Response.json({ authenticated: true });
}

/**
 * Exchanges the token (checked by the proxy) for the page's HttpOnly session cookie. Only
 * the bearer token opens a session; a request with a valid cookie has one already.
 */
export async function POST(request: Request): Promise<Response> {
  if (bearerToken(request.headers.get('authorization')) === null) {
    return errorResponse(new LoopscopeError('UNAUTHENTICATED', 'POST /api/session exchanges the token for a session: send it as Authorization: Bearer <token>.'));
  }
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': sessionSetCookieHeader({ port: serverPort(), token: serverToken() }), 'cache-control': 'no-store' },
  });
}
