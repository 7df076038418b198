import { createHmac } from 'node:crypto';

/**
 * The page's credential: an HttpOnly cookie the browser gets once, in exchange for the
 * per-launch token (POST /api/session with `Authorization: Bearer <token>`). HttpOnly keeps
 * it out of reach of any script on the page; EventSource streams and downloads send it
 * without a `?token=` in URLs (which end up in history and logs); new tabs and bookmarks
 * work until the server restarts with a new token.
 */

/**
 * The cookie's name carries the port: browsers do not isolate cookies by port, and two
 * Loopscope servers on one machine must not overwrite each other's session.
 */
export function sessionCookieName(port: number): string {
  return `loopscope_session_${port}`;
}

/**
 * The cookie's value: an HMAC-SHA256 keyed by the token, not the token itself, so the
 * cookie store never holds the bearer token. It needs no server-side state (the proxy and
 * the route handlers are separate bundles) and dies with the token: after a restart with a
 * new token, an old cookie no longer matches.
 */
export function sessionCookieValue(token: string): string {
  return createHmac('sha256', token).update('loopscope-session-v1').digest('base64url');
}

/** The `Set-Cookie` header that hands the browser its session for this server. */
export function sessionSetCookieHeader(options: { port: number; token: string }): string {
  // No Max-Age: a browser-session cookie, gone when the browser closes. No Secure: the
  // server speaks plain HTTP on loopback (a Secure cookie would never be sent back).
  return `${sessionCookieName(options.port)}=${sessionCookieValue(options.token)}; HttpOnly; SameSite=Strict; Path=/`;
}
