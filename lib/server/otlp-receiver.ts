import { gunzipSync } from 'node:zlib';
import { errorMessage, LoopscopeError } from '../errors';
import { decodeOtlpJson } from '../trace/otlp-json';
import { parseJsonLimited } from '../trace/parse-json-limited';
import { decodeOtlpProtobuf } from '../trace/otlp-protobuf';
import type { Span } from '../trace/span';
import { OTLP_MAX_BODY_BYTES } from './body-limits';

// The limit lives in body-limits.ts, which the HTTP server reads too; re-exported for callers.
export { OTLP_MAX_BODY_BYTES };

/**
 * Decodes one OTLP/HTTP trace export (JSON or protobuf, optionally gzipped) into spans.
 * Throws a LoopscopeError whose code maps to the status the OTLP spec asks for
 * (400 malformed, 413 too large, 415 unknown content type).
 */
export function decodeOtlpRequest(options: {
  contentType: string | null;
  contentEncoding: string | null;
  body: Uint8Array;
  maxBytes?: number;
}): Span[] {
  const maxBytes = options.maxBytes ?? OTLP_MAX_BODY_BYTES;
  let body = options.body;
  if (body.byteLength > maxBytes) {
    throw new LoopscopeError('PAYLOAD_TOO_LARGE', `The export body is ${body.byteLength} bytes; the limit is ${maxBytes}.`);
  }
  const encoding = (options.contentEncoding ?? '').trim().toLowerCase();
  if (encoding === 'gzip') {
    try {
      // maxOutputLength guards against a small gzip bomb expanding past the limit.
      body = gunzipSync(body, { maxOutputLength: maxBytes });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger/.test(errorMessage(error));
      if (tooLarge) throw new LoopscopeError('PAYLOAD_TOO_LARGE', `The gzipped export body expands past ${maxBytes} bytes.`, { cause: error });
      throw new LoopscopeError('INVALID_ARGUMENT', `The body says Content-Encoding: gzip but is not valid gzip: ${errorMessage(error)}`, { cause: error });
    }
  } else if (encoding !== '' && encoding !== 'identity') {
    throw new LoopscopeError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${encoding}" is not supported; send identity or gzip.`);
  }

  const mediaType = (options.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') {
    return decodeOtlpJson(parseJsonLimited(body, { what: 'The export body' }));
  }
  if (mediaType === 'application/x-protobuf' || mediaType === 'application/protobuf') {
    return decodeOtlpJson(decodeOtlpProtobuf(body));
  }
  throw new LoopscopeError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Type "${mediaType || '(none)'}" is not an OTLP trace export; send application/json or application/x-protobuf.`,
  );
}
