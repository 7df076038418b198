import { NextResponse, type NextRequest } from 'next/server';
import { guardRequest } from './lib/server/request-guard';
import { serverPort, serverToken } from './lib/server/server-config';

/**
 * Every request passes the security model of ARCHITECTURE.md before anything else runs:
 * Host allow-list (DNS rebinding), Origin check, token on /api and /v1/traces.
 * No matcher on purpose: static assets get the Host check too.
 */
export function proxy(request: NextRequest) {
  const verdict = guardRequest(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      host: request.headers.get('host'),
      origin: request.headers.get('origin'),
      authorization: request.headers.get('authorization'),
      queryToken: request.nextUrl.searchParams.get('token'),
    },
    { port: serverPort(), token: serverToken(), extraHost: process.env.LOOPSCOPE_EXTRA_HOST },
  );
  if (verdict.ok) return NextResponse.next();
  return NextResponse.json({ error: { code: verdict.status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', message: verdict.message } }, { status: verdict.status });
}
