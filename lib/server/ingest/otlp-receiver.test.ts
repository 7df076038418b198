import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeOtlpRequestPartially, decodeOtlpRequest, OTLP_MAX_BODY_BYTES } from './otlp-receiver';
import { MAX_JSON_DEPTH } from '../../spans/parse-json-limited';
import { deepArrayText, deepArrayValueText, deepKvlistValueText, deepObjectText, OTLP_ATTRIBUTE_VALUE_DEPTH, otlpBodyText } from '../../spans/testing/deep-json';
import { thrownLoopscopeError } from '../../spans/testing/thrown-error';

/** Three real SDK spans (a root with two children) in one trace. */
function recordSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'otlp-receiver-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('receiver-test', '0.0.1');
  const root = tracer.startSpan('root', { attributes: { 'genkit:name': 'generate', 'genkit:type': 'util' } });
  const context = trace.setSpan(ROOT_CONTEXT, root);
  const child = tracer.startSpan('child-a', { attributes: { count: 3 } }, context);
  child.end();
  const failed = tracer.startSpan('child-b', {}, context);
  failed.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  failed.end();
  root.end();
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(3);
  return spans;
}

function jsonBody(): Uint8Array {
  const body = JsonTraceSerializer.serializeRequest(recordSpans());
  if (!body) throw new Error('the JSON serializer returned nothing');
  return body;
}

function protobufBody(): Uint8Array {
  const body = ProtobufTraceSerializer.serializeRequest(recordSpans());
  if (!body) throw new Error('the protobuf serializer returned nothing');
  return body;
}

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/x-protobuf';

describe('decodeOtlpRequest: accepted bodies', () => {
  it('decodes an OTLP JSON export and counts its spans', () => {
    const spans = decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body: jsonBody() });
    expect(spans).toHaveLength(3);
    expect(spans.map((span) => span.name).sort()).toEqual(['child-a', 'child-b', 'root']);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const root = spans.find((span) => span.name === 'root')!;
    expect(root.parentSpanId).toBeUndefined();
    expect(root.resource['service.name']).toBe('otlp-receiver-test');
    expect(spans.find((span) => span.name === 'child-a')?.parentSpanId).toBe(root.spanId);
    expect(spans.find((span) => span.name === 'child-b')?.status).toMatchObject({ code: 2, message: 'boom' });
  });

  it('accepts a content type with parameters and in another case', () => {
    expect(decodeOtlpRequest({ contentType: 'Application/JSON; charset=utf-8', contentEncoding: null, body: jsonBody() })).toHaveLength(3);
  });

  it('decodes a gzipped JSON export', () => {
    const spans = decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: 'gzip', body: gzipSync(jsonBody()) });
    expect(spans).toHaveLength(3);
  });

  it('accepts the identity encoding and an encoding name in another case', () => {
    expect(decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: 'identity', body: jsonBody() })).toHaveLength(3);
    expect(decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: ' GZIP ', body: gzipSync(jsonBody()) })).toHaveLength(3);
  });

  it('decodes a protobuf export to the same spans as its JSON twin', () => {
    const spans = decodeOtlpRequest({ contentType: PROTOBUF_TYPE, contentEncoding: null, body: protobufBody() });
    expect(spans).toHaveLength(3);
    const root = spans.find((span) => span.name === 'root')!;
    expect(root.attributes['genkit:name']).toBe('generate');
    expect(spans.find((span) => span.name === 'child-a')?.attributes.count).toBe(3);
    expect(spans.find((span) => span.name === 'child-a')?.parentSpanId).toBe(root.spanId);
  });

  it('decodes gzipped protobuf and application/protobuf', () => {
    expect(decodeOtlpRequest({ contentType: PROTOBUF_TYPE, contentEncoding: 'gzip', body: gzipSync(protobufBody()) })).toHaveLength(3);
    expect(decodeOtlpRequest({ contentType: 'application/protobuf', contentEncoding: null, body: protobufBody() })).toHaveLength(3);
  });

  it('decodes an empty export to no spans', () => {
    const body = new TextEncoder().encode(JSON.stringify({ resourceSpans: [] }));
    expect(decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body })).toEqual([]);
  });
});

describe('decodeOtlpRequest: refused bodies', () => {
  it('refuses invalid JSON with INVALID_ARGUMENT (400) and a message', () => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body: new TextEncoder().encode('{"resourceSpans": [') }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('not valid JSON');
  });

  it('refuses bytes that are not UTF-8 as invalid JSON (400)', () => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }));
    expect(error.httpStatus).toBe(400);
  });

  it('refuses well-formed JSON that is not OTLP (400) naming the problem', () => {
    const body = new TextEncoder().encode(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: '0102030405060708' }] }] }] }));
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('traceId');
  });

  it('refuses a JSON body without resourceSpans (400)', () => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body: new TextEncoder().encode('{}') }));
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('resourceSpans');
  });

  it('refuses malformed protobuf with 400', () => {
    const body = protobufBody().slice(0, 25);
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: PROTOBUF_TYPE, contentEncoding: null, body }));
    expect(error.httpStatus).toBe(400);
  });

  it('refuses a body over maxBytes with PAYLOAD_TOO_LARGE (413)', () => {
    const body = jsonBody();
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body, maxBytes: body.byteLength - 1 }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.httpStatus).toBe(413);
    expect(error.message).toContain(String(body.byteLength - 1));
  });

  it('accepts a body exactly at maxBytes', () => {
    const body = jsonBody();
    expect(decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: null, body, maxBytes: body.byteLength })).toHaveLength(3);
  });

  it('has a default limit far above a real batch', () => {
    expect(OTLP_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
  });

  it('refuses a gzip bomb (10 MB of zeros, 1 MB limit) with 413', () => {
    const bomb = gzipSync(new Uint8Array(10 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: 'gzip', body: bomb, maxBytes: 1024 * 1024 }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.httpStatus).toBe(413);
    expect(error.message).toContain('expands past');
  });

  it('refuses a body that says gzip but is not (400)', () => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: 'gzip', body: jsonBody() }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('not valid gzip');
  });

  it('refuses a truncated gzip stream (400)', () => {
    const gzipped = gzipSync(jsonBody());
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding: 'gzip', body: gzipped.subarray(0, gzipped.byteLength - 12) }));
    expect(error.httpStatus).toBe(400);
  });

  it.each([null, 'text/plain', 'application/jsonx', 'multipart/form-data'])('refuses content type %s with 415', (contentType) => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType, contentEncoding: null, body: jsonBody() }));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.httpStatus).toBe(415);
    expect(error.message).toContain('application/json');
  });

  it.each(['br', 'deflate', 'zstd'])('refuses content encoding %s with 415', (contentEncoding) => {
    const error = thrownLoopscopeError(() => decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding, body: jsonBody() }));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.httpStatus).toBe(415);
    expect(error.message).toContain(contentEncoding);
  });
});

describe('decodeOtlpRequest: hostile bodies', () => {
  const decodeText = (text: string, contentEncoding: string | null = null) =>
    decodeOtlpRequest({ contentType: JSON_TYPE, contentEncoding, body: contentEncoding === 'gzip' ? gzipSync(text) : new TextEncoder().encode(text) });

  /** Each body, nested past the limit, with the depth its text really has. */
  const deepBodies = (levels: number) => [
    { kind: 'arrays', text: deepArrayText(levels), depth: levels },
    { kind: 'objects', text: deepObjectText(levels), depth: levels },
    // Valid OTLP around the nesting: a deep attribute value, and a deep unknown span field.
    { kind: 'kvlistValues', text: otlpBodyText({ valueText: deepKvlistValueText(levels) }), depth: OTLP_ATTRIBUTE_VALUE_DEPTH + 4 * levels },
    { kind: 'arrayValues', text: otlpBodyText({ valueText: deepArrayValueText(levels) }), depth: OTLP_ATTRIBUTE_VALUE_DEPTH + 3 * levels },
    { kind: 'an unknown field', text: otlpBodyText().replace('"name":"hostile"', `"name":"hostile","extra":${deepArrayText(levels)}`), depth: 7 + levels },
  ];

  const cases = [10_000, 1_000].flatMap((levels) => deepBodies(levels).map((body) => [body.kind, levels, body] as const));
  it.each(cases)('refuses %s nested %i levels deep with 400 naming the depth, plain or gzipped', (kind, _levels, { text, depth }) => {
    for (const encoding of [null, 'gzip']) {
      const error = thrownLoopscopeError(() => decodeText(text, encoding));
      expect(error.code, kind).toBe('INVALID_ARGUMENT');
      expect(error.httpStatus).toBe(400);
      expect(error.message, kind).toBe(`The export body is nested ${depth} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
    }
  });

  it('accepts an attribute nested right up to the limit, and counts its span', () => {
    // 29 kvlistValues: 10 + 4 × 29 = 126 levels ≤ 128; 30 make 130.
    const spans = decodeText(otlpBodyText({ valueText: deepKvlistValueText(29) }));
    expect(spans).toHaveLength(1);
    let value = spans[0].attributes.deep;
    for (let level = 0; level < 29; level++) value = (value as Record<string, unknown>).k as typeof value;
    expect(value).toBe('leaf');
    expect(thrownLoopscopeError(() => decodeText(otlpBodyText({ valueText: deepKvlistValueText(30) }))).message).toBe(
      `The export body is nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 4 * 30} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
    );
  });

  // The fast path (canonical bodies) and the tolerant path (anything else: here an enum name) must agree.
  it.each([
    ['2^64', '18446744073709551616'],
    ['a 21-digit time', '100000000000000000000'],
    ['a 20-digit time above 2^64−1', '99999999999999999999'],
  ])('refuses %s with 400 and the same message on the fast and the tolerant path', (_case, time) => {
    const canonical = thrownLoopscopeError(() => decodeText(otlpBodyText({ span: { startTimeUnixNano: time } })));
    const tolerant = thrownLoopscopeError(() => decodeText(otlpBodyText({ span: { startTimeUnixNano: time, kind: 'SPAN_KIND_INTERNAL' } })));
    expect(canonical.httpStatus).toBe(400);
    expect(canonical.message).toBe(
      'Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: expected a non-negative integer time in nanoseconds (decimal string, number or {low, high}).',
    );
    expect(tolerant.message).toBe(canonical.message);
    const end = thrownLoopscopeError(() => decodeText(otlpBodyText({ span: { endTimeUnixNano: time } })));
    expect(end.message).toContain('spans[0].endTimeUnixNano: expected a non-negative integer time');
  });

  it('accepts 2^64−1 itself on both paths', () => {
    const max = '18446744073709551615';
    expect(decodeText(otlpBodyText({ span: { endTimeUnixNano: max } }))[0].endTimeUnixNano).toBe(max);
    expect(decodeText(otlpBodyText({ span: { endTimeUnixNano: max, kind: 'SPAN_KIND_INTERNAL' } }))[0].endTimeUnixNano).toBe(max);
  });
});

describe('decodeOtlpRequestPartially: one bad span among good ones', () => {
  const json = (value: unknown) => ({ contentType: 'application/json', contentEncoding: null, body: new TextEncoder().encode(JSON.stringify(value)) });
  const spanOf = (name: string, spanId: string, extra: Record<string, unknown> = {}) => ({ traceId: 'a'.repeat(32), spanId, name, kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000', ...extra });
  const exportOf = (...scopes: unknown[][]) => ({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] }, scopeSpans: scopes.map((spans) => ({ scope: { name: 'sc' }, spans })) }] });

  it('keeps the good spans with their resource and scope, counts the bad ones and names the first by its place', () => {
    const result = decodeOtlpRequestPartially(json(exportOf([spanOf('good-1', 'b'.repeat(16)), spanOf('zero', '0'.repeat(16))], [spanOf('good-2', 'c'.repeat(16)), spanOf('late', 'd'.repeat(16), { startTimeUnixNano: 'soon' })])));
    expect(result.spans.map((span) => [span.name, span.resource['service.name'], span.scope.name])).toEqual([
      ['good-1', 'svc', 'sc'],
      ['good-2', 'svc', 'sc'],
    ]);
    expect(result.rejected).toBe(2);
    expect(result.firstProblem).toBe('Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[1].spanId: an id of all zeros is invalid.');
  });

  it('a good export decodes whole, with nothing rejected; an export with no good span is refused as a whole, as before', () => {
    expect(decodeOtlpRequestPartially(json(exportOf([spanOf('good', 'b'.repeat(16))])))).toMatchObject({ rejected: 0, spans: [{ name: 'good' }] });
    expect(() => decodeOtlpRequestPartially(json(exportOf([spanOf('zero', '0'.repeat(16))])))).toThrow(/spans\[0\]\.spanId: an id of all zeros is invalid/);
    expect(() => decodeOtlpRequestPartially(json({ resourceSpans: 5 }))).toThrow(/OTLP JSON/);
  });
});
