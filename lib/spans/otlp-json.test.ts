import { describe, expect, it } from 'vitest';
import { decodeOtlpJson, encodeOtlpJson, OtlpExportRequestSchema } from './otlp-json';
import type { Span } from './span';
import { attributesOf, buildSpan, type SpanOverrides } from './testing/build-span';
import { thrownLoopscopeError } from './testing/thrown-error';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const CHILD_ID = '53995c3f42cd8ad8';

const attributes = attributesOf;

function span(overrides: SpanOverrides = {}): Span {
  return buildSpan({
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    name: 'generate',
    startTimeUnixNano: '1718000000123456789',
    endTimeUnixNano: '1718000000987654321',
    attributes: { 'genkit:type': 'util', 'genkit:name': 'generate' },
    resource: { 'service.name': 'loopscope-runner' },
    scope: { name: 'genkit-tracer', version: 'v1' },
    ...overrides,
  });
}

/** A minimal valid wire span, for the tolerance tests to vary one field at a time. */
function wireSpan(overrides: Record<string, unknown> = {}) {
  return { traceId: TRACE_ID, spanId: SPAN_ID, name: 'tool', kind: 1, startTimeUnixNano: '1000', endTimeUnixNano: '2000', ...overrides };
}

function request(spans: unknown[], extra: Record<string, unknown> = {}) {
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'genkit-tracer' }, spans }], ...extra }] };
}

describe('encodeOtlpJson / decodeOtlpJson', () => {
  const spans: Span[] = [
    span({
      attributes: attributes({
        'genkit:input': '{"messages":[]}',
        count: 3,
        ratio: 0.25,
        big: '9007199254740993',
        done: true,
        nothing: null,
        list: [1, 'two', false, [3.5]],
        nested: attributes({ inner: attributes({ deep: 'yes' }), n: -7 }),
      }),
      status: { code: 2, message: 'boom' },
      events: [{ name: 'exception', timeUnixNano: '1718000000500000000', attributes: attributes({ 'exception.type': 'ToolInterruptError' }) }],
      links: [{ traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', spanId: 'bbbbbbbbbbbbbbbb', attributes: attributes({ reason: 'resume' }) }],
    }),
    // Open span (no end), with a parent, from another scope, then back to the first scope.
    span({ spanId: CHILD_ID, parentSpanId: SPAN_ID, endTimeUnixNano: undefined, scope: { name: '@opentelemetry/instrumentation-http' } }),
    span({ spanId: '1111111111111111', parentSpanId: SPAN_ID, status: { code: 1, message: '' } }),
    span({ traceId: 'cccccccccccccccccccccccccccccccc', spanId: '2222222222222222', resource: attributes({ 'service.name': 'other-app' }), kind: 3 }),
  ];

  it('round-trips spans exactly, also through JSON text', () => {
    expect(decodeOtlpJson(encodeOtlpJson(spans))).toEqual(spans);
    expect(decodeOtlpJson(JSON.parse(JSON.stringify(encodeOtlpJson(spans))))).toEqual(spans);
  });

  it('encodes hex ids, nanosecond strings, intValue strings and doubleValue numbers, grouped by resource then scope', () => {
    const encoded = encodeOtlpJson(spans);
    expect(encoded.resourceSpans).toHaveLength(2);
    expect(encoded.resourceSpans[0].scopeSpans.map((group) => group.scope?.name)).toEqual([
      'genkit-tracer',
      '@opentelemetry/instrumentation-http',
      'genkit-tracer',
    ]);
    const first = encoded.resourceSpans[0].scopeSpans[0].spans[0];
    expect(first).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, startTimeUnixNano: '1718000000123456789', kind: 1 });
    const byKey = new Map(first.attributes?.map((keyValue) => [keyValue.key, keyValue.value]));
    expect(byKey.get('count')).toEqual({ intValue: '3' });
    expect(byKey.get('ratio')).toEqual({ doubleValue: 0.25 });
    expect(byKey.get('nothing')).toEqual({});
    expect(encoded.resourceSpans[0].scopeSpans[1].spans[0].endTimeUnixNano).toBe('0');
    // What we write is itself valid input.
    expect(OtlpExportRequestSchema.safeParse(encoded).success).toBe(true);
  });

  it('encodes non-finite doubles as proto3 JSON strings and reads them back', () => {
    const weird = [span({ attributes: attributes({ nan: Number.NaN, inf: Number.POSITIVE_INFINITY }) })];
    const text = JSON.stringify(encodeOtlpJson(weird));
    expect(text).toContain('"doubleValue":"NaN"');
    expect(decodeOtlpJson(JSON.parse(text))[0].attributes).toEqual(weird[0].attributes);
  });
});

describe('decodeOtlpJson tolerance', () => {
  it('accepts base64 ids (padded, unpadded, URL-safe) and uppercase hex, normalizing to lowercase hex', () => {
    const traceBase64 = Buffer.from(TRACE_ID, 'hex').toString('base64');
    const spanBase64 = Buffer.from(SPAN_ID, 'hex').toString('base64');
    const parentBase64Url = Buffer.from(CHILD_ID, 'hex').toString('base64url');
    const [decoded] = decodeOtlpJson(request([wireSpan({ traceId: traceBase64, spanId: spanBase64, parentSpanId: parentBase64Url })]));
    expect(decoded).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, parentSpanId: CHILD_ID });
    const [upper] = decodeOtlpJson(request([wireSpan({ traceId: TRACE_ID.toUpperCase(), spanId: SPAN_ID.toUpperCase() })]));
    expect(upper).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID });
  });

  it('accepts times as decimal strings with leading zeros, numbers and {low, high} longs', () => {
    const nanos = 1718000000123456789n;
    const long = { low: Number(nanos & 0xffffffffn) | 0, high: Number(nanos >> 32n) | 0 };
    const [fromLong, fromNumber, fromPadded] = decodeOtlpJson(
      request([
        wireSpan({ startTimeUnixNano: long, endTimeUnixNano: { low: long.low, high: long.high, unsigned: true } }),
        wireSpan({ spanId: CHILD_ID, startTimeUnixNano: 1718000000000000000, endTimeUnixNano: 1718000001000000000 }),
        wireSpan({ spanId: '1111111111111111', startTimeUnixNano: '000123', endTimeUnixNano: '0000456' }),
      ]),
    );
    expect(fromLong.startTimeUnixNano).toBe('1718000000123456789');
    expect(fromLong.endTimeUnixNano).toBe('1718000000123456789');
    expect(fromNumber.startTimeUnixNano).toBe('1718000000000000000');
    expect(fromPadded).toMatchObject({ startTimeUnixNano: '123', endTimeUnixNano: '456' });
  });

  it('reads an end time of 0 or none as an open span', () => {
    const [zero, missing] = decodeOtlpJson(request([wireSpan({ endTimeUnixNano: '0' }), wireSpan({ spanId: CHILD_ID, endTimeUnixNano: undefined })]));
    expect(zero.endTimeUnixNano).toBeUndefined();
    expect(missing.endTimeUnixNano).toBeUndefined();
  });

  it('accepts enum names for kind and status code', () => {
    const [decoded] = decodeOtlpJson(request([wireSpan({ kind: 'SPAN_KIND_SERVER', status: { code: 'STATUS_CODE_ERROR', message: 'x' } })]));
    expect(decoded.kind).toBe(2);
    expect(decoded.status).toEqual({ code: 2, message: 'x' });
  });

  it('decodes every AnyValue kind, intValue as string or number', () => {
    const [decoded] = decodeOtlpJson(
      request([
        wireSpan({
          attributes: [
            { key: 's', value: { stringValue: 'text' } },
            { key: 'b', value: { boolValue: false } },
            { key: 'i', value: { intValue: '42' } },
            { key: 'n', value: { intValue: 7 } },
            { key: 'huge', value: { intValue: '9223372036854775807' } },
            { key: 'd', value: { doubleValue: 1.5 } },
            { key: 'a', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: '1' }] } } },
            { key: 'kv', value: { kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } } },
            { key: 'bytes', value: { bytesValue: 'AQID' } },
            { key: 'empty', value: {} },
            { key: 'absent' },
            { key: '__proto__', value: { stringValue: 'polluted?' } },
          ],
        }),
      ]),
    );
    expect({ ...decoded.attributes }).toEqual({
      s: 'text',
      b: false,
      i: 42,
      n: 7,
      huge: '9223372036854775807',
      d: 1.5,
      a: ['x', 1],
      kv: { k: true },
      bytes: 'AQID',
      empty: null,
      absent: null,
      ['__proto__']: 'polluted?',
    });
    expect(Object.getPrototypeOf(decoded.attributes)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats an empty or all-zero parentSpanId as no parent', () => {
    const decoded = decodeOtlpJson(request([wireSpan({ parentSpanId: '' }), wireSpan({ spanId: CHILD_ID, parentSpanId: '0000000000000000' })]));
    expect(decoded.map((item) => 'parentSpanId' in item)).toEqual([false, false]);
  });

  it('accepts the legacy instrumentationLibrarySpans field and ignores unknown fields', () => {
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'old-exporter' } }], droppedAttributesCount: 0 },
          instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'legacy', version: '0.9' }, spans: [wireSpan({ flags: 1, traceState: '' })] }],
          schemaUrl: 'https://opentelemetry.io/schemas/1.9.0',
        },
      ],
      somethingNew: true,
    };
    const [decoded] = decodeOtlpJson(body);
    expect(decoded.scope).toEqual({ name: 'legacy', version: '0.9' });
    expect(decoded.resource['service.name']).toBe('old-exporter');
    expect(Object.keys(decoded)).not.toContain('flags');
  });

  it('accepts an export with no spans', () => {
    expect(decodeOtlpJson({ resourceSpans: [] })).toEqual([]);
    expect(decodeOtlpJson({ resourceSpans: [{ scopeSpans: [{ spans: [] }] }] })).toEqual([]);
  });
});

describe('decodeOtlpJson errors', () => {
  it('names the path of a bad trace id', () => {
    const body = { resourceSpans: [{ scopeSpans: [{ spans: [] }, { spans: [wireSpan(), wireSpan(), wireSpan(), wireSpan({ traceId: 'abc' })] }] }] };
    const error = thrownLoopscopeError(() => decodeOtlpJson(body));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(
      'Invalid OTLP JSON at resourceSpans[0].scopeSpans[1].spans[3].traceId: expected 32 hex characters (or base64 of 16 bytes), got "abc".',
    );
    expect(error.cause).toBeDefined();
  });

  it('names the legacy path and bad span ids', () => {
    const body = { resourceSpans: [{ instrumentationLibrarySpans: [{ spans: [wireSpan({ spanId: 'xyz' })] }] }] };
    expect(thrownLoopscopeError(() => decodeOtlpJson(body)).message).toBe(
      'Invalid OTLP JSON at resourceSpans[0].instrumentationLibrarySpans[0].spans[0].spanId: expected 16 hex characters (or base64 of 8 bytes), got "xyz".',
    );
  });

  it('rejects all-zero ids', () => {
    expect(thrownLoopscopeError(() => decodeOtlpJson(request([wireSpan({ traceId: '0'.repeat(32) })]))).message).toContain(
      'spans[0].traceId: an id of all zeros is invalid',
    );
  });

  it('explains a missing resourceSpans, a non-object body, a bad time and a bad kind', () => {
    expect(thrownLoopscopeError(() => decodeOtlpJson({ spans: [] })).message).toBe('Invalid OTLP JSON: resourceSpans is missing (expected array).');
    expect(thrownLoopscopeError(() => decodeOtlpJson(null)).message).toBe('Invalid OTLP JSON: expected object, received null.');
    expect(thrownLoopscopeError(() => decodeOtlpJson(request([wireSpan({ startTimeUnixNano: '-5' })]))).message).toBe(
      'Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: expected a non-negative integer time in nanoseconds (decimal string, number or {low, high}).',
    );
    expect(thrownLoopscopeError(() => decodeOtlpJson(request([wireSpan({ kind: 'SPAN_KIND_WEIRD' })]))).message).toContain(
      'spans[0].kind: expected a span kind 0–5 or a name such as SPAN_KIND_INTERNAL, got "SPAN_KIND_WEIRD"',
    );
    expect(thrownLoopscopeError(() => decodeOtlpJson(request([wireSpan({ attributes: [{ key: 'x', value: { intValue: '1.5' } }] })]))).message).toContain(
      'spans[0].attributes[0].value.intValue',
    );
  });
});
