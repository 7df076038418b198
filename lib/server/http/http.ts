import type { z } from 'zod';
import type { ApiErrorBody } from '../../contract/api-error';
import { LoopscopeError } from '../../errors';
import { parseJsonLimited } from '../../spans/parse-json-limited';
import { API_MAX_BODY_BYTES } from './body-limits';

// The limit lives in body-limits.ts, which the HTTP server reads too; re-exported for callers.
export { API_MAX_BODY_BYTES };

/** Maps any thrown value to a JSON error response; unknown errors are 500 without internals. */
export function errorResponse(error: unknown): Response {
  if (LoopscopeError.isInstance(error)) {
    const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
    return Response.json(body, { status: error.httpStatus });
  }
  console.error('loopscope: unexpected error', error);
  const body: ApiErrorBody = { error: { code: 'INTERNAL', message: 'Internal error; see the server log.' } };
  return Response.json(body, { status: 500 });
}

/** Reads a request body, refusing it once it passes `maxBytes` (declared or streamed). */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new LoopscopeError('PAYLOAD_TOO_LARGE', `The body is ${declared} bytes; the limit is ${maxBytes}.`);
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new LoopscopeError('PAYLOAD_TOO_LARGE', `The body passed the limit of ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Parses a JSON body against a schema; every failure is a 4xx naming the problem. */
export async function readJsonBody<Schema extends z.ZodType>({
  request,
  schema,
  maxBytes = API_MAX_BODY_BYTES,
}: {
  request: Request;
  schema: Schema;
  /** The largest body accepted (default API_MAX_BODY_BYTES). */
  maxBytes?: number;
}): Promise<z.infer<Schema>> {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new LoopscopeError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
  }
  const bytes = await readBodyLimited(request, maxBytes);
  const value = parseJsonLimited(new TextDecoder().decode(bytes), { what: 'The body' });
  return parseRequestValue({ value, schema });
}

/** Checks an already parsed body against a schema (a route whose body has two shapes picks one first); the failure is a 400 naming the field. */
export function parseRequestValue<Schema extends z.ZodType>({ value, schema }: { value: unknown; schema: Schema }): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LoopscopeError('INVALID_ARGUMENT', `Invalid request body at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
