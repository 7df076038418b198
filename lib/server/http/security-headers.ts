import { randomBytes } from 'node:crypto';

/** A fresh, unguessable value for one response's `'nonce-…'` (the proxy makes one per request). */
export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The Content-Security-Policy of every response. Scripts run only when they carry the
 * request's nonce (Next puts it on its own inline and bundle scripts, read from this header
 * on the request), or when such a script loads them ('strict-dynamic'): no inline script,
 * event-handler attribute or `javascript:` URL runs, so nothing a trace holds can run as
 * script, even if it ever reached the HTML. `frame-ancestors 'none'`
 * stops clickjacking (a page framing Loopscope to trick a click on "Restart runner").
 * Without a nonce (the HTTP server's own 413s) no script may run at all.
 */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    // No 'unsafe-eval' either: tool schemas come from traces and a JSON-schema validator
    // compiles them to code, so answers are checked on the server (POST /api/resume/check).
    nonce ? `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'` : "script-src 'none'",
    // No 'unsafe-inline' for styles either. React Flow positions nodes with style props, but
    // React applies those through the CSSOM (element.style), which CSP does not govern, and
    // the pages render in the browser (after the session gate), so the HTML carries no
    // style attributes (measured in Chromium: no violation on any page, e2e/csp.spec.ts).
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The security headers of every response (pages, API, 404s, static files, the receiver):
 * the CSP above, `X-Frame-Options: DENY` for browsers that predate frame-ancestors, no MIME
 * sniffing, and no Referer (a Loopscope URL names traces and files).
 */
export function securityHeaders(nonce?: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
