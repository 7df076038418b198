import { HTTP_STATUS_BY_CODE } from '../../errors';
import { bodyLimitFor } from './body-limits';
import { otlpErrorBody } from '../ingest/otlp-error';

/** A response the HTTP server sends itself, before Next sees the request. */
export interface EarlyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The 413 for a request whose declared Content-Length is over its route's limit, or null
 * when the request may go on. Answered from the headers alone, so a 40 MB upload is refused
 * before its first byte is read (the route handlers still count the bytes of bodies that
 * declare no length). The body has the route's error shape: `{code, message}` on the OTLP
 * receiver, `{error: {code, message}}` elsewhere.
 */
export function declaredBodyRefusal(request: { method: string | undefined; url: string; contentLength: string | undefined }): EarlyResponse | null {
  if (request.contentLength === undefined) return null;
  const declared = Number(request.contentLength);
  // Node's parser already refuses a Content-Length that is not a number.
  if (!Number.isFinite(declared)) return null;
  const pathname = request.url.split('?')[0];
  const limit = bodyLimitFor({ method: request.method, pathname });
  if (declared <= limit.maxBytes) return null;
  const status = HTTP_STATUS_BY_CODE.PAYLOAD_TOO_LARGE;
  const message = `The body is ${declared} bytes; the limit of ${pathname} is ${limit.maxBytes}.`;
  const payload = limit.errorShape === 'otlp' ? otlpErrorBody(status, message) : { error: { code: 'PAYLOAD_TOO_LARGE', message } };
  return {
    status,
    // Close: the rest of the body is never read, so the connection cannot carry another request.
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(payload),
  };
}
