import { gunzipSync } from 'node:zlib';
import { errorMessage, LoopscopeError } from '../../errors';
import { decodeOtlpJson } from '../../spans/otlp-json';
import { parseJsonLimited } from '../../spans/parse-json-limited';
import { decodeOtlpProtobuf } from '../../spans/otlp-protobuf';
import type { Span } from '../../spans/span';
import { OTLP_MAX_BODY_BYTES } from '../http/body-limits';

// The limit lives in body-limits.ts, which the HTTP server reads too; re-exported for callers.
export { OTLP_MAX_BODY_BYTES };

/**
 * Decodes one OTLP/HTTP trace export (JSON or protobuf, optionally gzipped) into spans.
 * Throws a LoopscopeError whose code maps to the status the OTLP spec asks for
 * (400 malformed, 413 too large, 415 unknown content type).
 */
export function decodeOtlpRequest(options: DecodeOptions): Span[] {
  return decodeOtlpRequestPartially(options).spans;
}

interface DecodeOptions {
  contentType: string | null;
  contentEncoding: string | null;
  body: Uint8Array;
  maxBytes?: number;
}

/**
 * Decodes an export, each malformed span rejected alone (the OTLP spec's partial success): when
 * the request as a whole does not decode, every span is decoded on its own with its resource
 * and scope, and the ones that fail are counted, the first named by its place in the request.
 * A body that is not an export at all still throws; so does one whose every span fails.
 */
export function decodeOtlpRequestPartially(options: DecodeOptions): { spans: Span[]; rejected: number; firstProblem?: string } {
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
  if (mediaType === 'application/json') return decodeSpanBySpan(parseJsonLimited(body, { what: 'The export body' }));
  if (mediaType === 'application/x-protobuf' || mediaType === 'application/protobuf') return decodeSpanBySpan(decodeOtlpProtobuf(body));
  throw new LoopscopeError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Type "${mediaType || '(none)'}" is not an OTLP trace export; send application/json or application/x-protobuf.`,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const SINGLE_SPAN_PATH = 'resourceSpans[0].scopeSpans[0].spans[0]';

function decodeSpanBySpan(request: unknown): { spans: Span[]; rejected: number; firstProblem?: string } {
  let whole: unknown;
  try {
    return { spans: decodeOtlpJson(request), rejected: 0 };
  } catch (error) {
    whole = error;
  }
  const resourceSpans = isRecord(request) && Array.isArray(request.resourceSpans) ? request.resourceSpans : undefined;
  if (!resourceSpans) throw whole;
  const spans: Span[] = [];
  let rejected = 0;
  let firstProblem: string | undefined;
  resourceSpans.forEach((resource, r) => {
    const scopes = isRecord(resource) && Array.isArray(resource.scopeSpans) ? resource.scopeSpans : [];
    scopes.forEach((scope, s) => {
      const list = isRecord(scope) && Array.isArray(scope.spans) ? scope.spans : [];
      list.forEach((span, k) => {
        try {
          spans.push(...decodeOtlpJson({ resourceSpans: [{ ...(resource as object), scopeSpans: [{ ...(scope as object), spans: [span] }] }] }));
        } catch (error) {
          rejected += 1;
          firstProblem ??= errorMessage(error).replace(SINGLE_SPAN_PATH, `resourceSpans[${r}].scopeSpans[${s}].spans[${k}]`);
        }
      });
    });
  });
  // Nothing decoded: the request is refused whole, as before, with its own first problem.
  if (spans.length === 0) throw whole;
  return { spans, rejected, ...(firstProblem ? { firstProblem } : {}) };
}
