import type { EarlyResponse } from './declared-body-refusal';

/** Methods the fetch standard forbids: Next cannot make a Request of them and answered `TRACE /` with a plain-text 500. */
const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

function refusal(options: { status: number; message: string; headers?: Record<string, string> }): EarlyResponse {
  return {
    status: options.status,
    headers: { 'content-type': 'application/json', connection: 'close', ...options.headers },
    body: JSON.stringify({ error: { code: options.status === 405 ? 'FAILED_PRECONDITION' : 'INVALID_ARGUMENT', message: options.message } }),
  };
}

/**
 * The answer to a request line Loopscope does not take, or null when Next may have it. Refused
 * before Next sees them: a target that is not a path (RFC 9112 §3.2: the absolute-form
 * `GET http://evil.example/ HTTP/1.1`, which Next answered with a 308 to that other host — the
 * form is for proxies, and Loopscope is none — and the asterisk-form `OPTIONS *` / `GET *`, which
 * it answered 500), and TRACE (500). The answer closes the connection: a request Loopscope
 * refuses to route has a body it will not read.
 */
export function requestLineRefusal(request: { method?: string; url?: string }): EarlyResponse | null {
  const target = request.url ?? '';
  if (!target.startsWith('/')) {
    return refusal({ status: 400, message: `The request target "${target.slice(0, 200)}" is not a path: Loopscope takes only targets of the form /path (it is no proxy).` });
  }
  const method = (request.method ?? '').toUpperCase();
  if (REFUSED_METHODS.has(method)) return refusal({ status: 405, message: `Loopscope does not answer ${method} requests.`, headers: { allow: 'GET, HEAD, POST' } });
  return null;
}
