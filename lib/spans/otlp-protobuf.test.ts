import { describe, expect, it } from 'vitest';
import {
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type SpanContext,
} from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { LoopscopeError } from '../errors';
import { decodeOtlpProtobuf } from './otlp-protobuf';
import { MAX_JSON_DEPTH, valueNestingDepth } from './parse-json-limited';

// ---------------------------------------------------------------------------------------------
// Real spans from the OpenTelemetry SDK, serialized by the exporter's own serializers.

const REMOTE_PARENT: SpanContext = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: createTraceState('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE'),
};

const LINKED: SpanContext = {
  traceId: 'ABCDEF0123456789abcdef0123456789'.toLowerCase(),
  spanId: '00f067aa0ba902b7',
  traceFlags: TraceFlags.NONE,
  isRemote: false,
  traceState: createTraceState('vendor=linked'),
};

function recordSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'otlp-protobuf-test', 'deployment.count': 3 }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('loopscope-test', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.24.0' });
  // A second scope without a version (exercises the `version` default).
  const bareTracer = provider.getTracer('bare-scope');

  const parent = tracer.startSpan('parent', {
    kind: SpanKind.SERVER,
    startTime: [1_700_000_000, 123_456_789],
    attributes: {
      'str': 'hello',
      'str.empty': '',
      'str.unicode': 'héllo → 世界 🚀',
      'bool.true': true,
      'bool.false': false,
      'int.zero': 0,
      'int.positive': 42,
      'int.negative': -7,
      'int.large': 2 ** 40 + 1,
      'int.min_safe': Number.MIN_SAFE_INTEGER,
      'double': 3.25,
      'double.negative': -0.5,
      'double.tiny': 1e-300,
      'array.str': ['a', 'b', ''],
      'array.int': [1, -2, 3],
      'array.double': [1.5, 2.5],
      'array.bool': [true, false],
      'array.empty': [],
      'array.with_null': [1, null, 3],
    },
  });
  parent.addEvent('cache.miss', { 'cache.key': 'k1', 'cache.size': 12 }, [1_700_000_000, 500_000_000]);
  parent.addEvent('no-attributes', [1_700_000_001, 0]);

  const child = tracer.startSpan(
    'child',
    {
      kind: SpanKind.CLIENT,
      startTime: [1_700_000_001, 0],
      links: [{ context: LINKED, attributes: { 'link.reason': 'retry-of', 'link.attempt': 2 } }],
    },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
  child.recordException(new Error('tool failed'));
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end([1_700_000_002, 999_999_999]);

  const remoteChild = tracer.startSpan('remote-child', { kind: SpanKind.CONSUMER }, trace.setSpanContext(ROOT_CONTEXT, REMOTE_PARENT));
  remoteChild.setStatus({ code: SpanStatusCode.OK });
  remoteChild.end();

  const internal = bareTracer.startSpan('internal', { kind: SpanKind.INTERNAL }, trace.setSpan(ROOT_CONTEXT, parent));
  internal.setAttribute('producer', 'x');
  internal.end();

  parent.end([1_700_000_003, 1]);
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(4);
  return spans;
}

/**
 * What the JSON serializer produced, brought to the decoder's (proto3 JSON) conventions. Each
 * normalization below is a place where the exporter's JSON legitimately differs from a faithful
 * protobuf → JSON mapping:
 *  1. `intValue`: the JSON serializer writes a JS number; OTLP/JSON (proto3 JSON mapping) writes
 *     int64 as a decimal string, which the decoder does. → String(n).
 *  2. `droppedAttributesCount` / `droppedEventsCount` / `droppedLinksCount` equal to 0: the JSON
 *     serializer always writes them; the decoder omits proto3 default values (a zero on the wire is
 *     indistinguishable from an absent field). → deleted when 0.
 *  3. `status.message`: the JSON serializer leaves it `undefined` (dropped by JSON.stringify) when
 *     unset; the decoder always emits `message` ('' by default). → defaulted to ''.
 *  4. `scope.version`: same as 3 for a tracer obtained without a version. → defaulted to ''.
 */
function normalizeJsonSerializerOutput(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalizeJsonSerializerOutput(item, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'intValue' && typeof v === 'number') {
      out[key] = String(v); // (1)
    } else if (/^dropped(Attributes|Events|Links)Count$/.test(key) && v === 0) {
      // (2) omitted
    } else {
      out[key] = normalizeJsonSerializerOutput(v, key);
    }
  }
  if (parentKey === 'status' && !('message' in out)) out.message = ''; // (3)
  if (parentKey === 'scope' && !('version' in out)) out.version = ''; // (4)
  return out;
}

function serializeBoth(spans: ReadableSpan[]): { protobuf: Uint8Array; json: unknown } {
  const protobuf = ProtobufTraceSerializer.serializeRequest(spans);
  const jsonBytes = JsonTraceSerializer.serializeRequest(spans);
  if (!protobuf || !jsonBytes) throw new Error('serializer returned nothing');
  return { protobuf, json: JSON.parse(new TextDecoder().decode(jsonBytes)) };
}

type Json = Record<string, any>;

function spansOf(decoded: unknown): Json[] {
  return (decoded as Json).resourceSpans.flatMap((rs: Json) => rs.scopeSpans.flatMap((ss: Json) => ss.spans));
}

function attr(span: Json, key: string): unknown {
  return span.attributes.find((kv: Json) => kv.key === key)?.value;
}

// ---------------------------------------------------------------------------------------------
// A tiny protobuf writer for hand-made bodies.

function varint(value: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wireType: number): number[] => varint((field << 3) | wireType);
const ld = (field: number, payload: number[]): number[] => [...tag(field, 2), ...varint(payload.length), ...payload];
const str = (field: number, s: string): number[] => ld(field, [...new TextEncoder().encode(s)]);
const vint = (field: number, v: bigint | number): number[] => [...tag(field, 0), ...varint(v)];
const fixed64 = (field: number, v: bigint): number[] => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return [...tag(field, 1), ...b];
};
const fixed32 = (field: number, v: number): number[] => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return [...tag(field, 5), ...b];
};
const hex = (h: string): number[] => h.match(/../g)!.map((x) => parseInt(x, 16));

/** ExportTraceServiceRequest{resource_spans{scope_spans{spans: [span]}}} around one Span payload. */
function requestWithSpan(span: number[], extraInScopeSpans: number[] = []): Uint8Array {
  return new Uint8Array(ld(1, ld(2, [...ld(2, span), ...extraInScopeSpans])));
}

const minimalSpan = (extra: number[] = []): number[] => [
  ...ld(1, hex('0102030405060708090a0b0c0d0e0f10')),
  ...ld(2, hex('a1a2a3a4a5a6a7a8')),
  ...str(5, 'span'),
  ...extra,
];

function expectMalformed(body: Uint8Array | number[], pattern?: RegExp): LoopscopeError {
  let caught: unknown;
  try {
    decodeOtlpProtobuf(body instanceof Uint8Array ? body : new Uint8Array(body));
  } catch (err) {
    caught = err;
  }
  expect(LoopscopeError.isInstance(caught), `expected a LoopscopeError, got ${String(caught)}`).toBe(true);
  const err = caught as LoopscopeError;
  expect(err.code).toBe('INVALID_ARGUMENT');
  expect(err.message).toMatch(/^OTLP protobuf body is malformed: .+ at byte offset \d+$/);
  if (pattern) expect(err.message).toMatch(pattern);
  return err;
}

// ---------------------------------------------------------------------------------------------

describe('decodeOtlpProtobuf — real OpenTelemetry exports', () => {
  it('decodes the protobuf serializer output into what the JSON serializer writes for the same spans', () => {
    const { protobuf, json } = serializeBoth(recordSpans());
    const decoded = decodeOtlpProtobuf(protobuf);
    expect(decoded).toStrictEqual(normalizeJsonSerializerOutput(json));
  });

  it('keeps ids, parentage, kinds, times, values, events, links and status as OTLP JSON expects', () => {
    const spans = spansOf(decodeOtlpProtobuf(serializeBoth(recordSpans()).protobuf));
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    const { parent, child } = byName;

    expect(parent.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(parent.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(parent).not.toHaveProperty('parentSpanId');
    expect(child.parentSpanId).toBe(parent.spanId);
    expect(child.traceId).toBe(parent.traceId);
    expect(byName['remote-child'].parentSpanId).toBe(REMOTE_PARENT.spanId);
    expect(byName['remote-child'].traceState).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    // flags: sampled (0x01) | HAS_IS_REMOTE (0x100) | IS_REMOTE (0x200)
    expect(byName['remote-child'].flags).toBe(0x301);

    expect(parent.kind).toBe(2); // SERVER
    expect(child.kind).toBe(3); // CLIENT
    expect(byName.internal.kind).toBe(1);
    expect(parent.startTimeUnixNano).toBe('1700000000123456789');
    expect(parent.endTimeUnixNano).toBe('1700000003000000001');
    expect(child.endTimeUnixNano).toBe('1700000002999999999');

    expect(attr(parent, 'int.negative')).toEqual({ intValue: '-7' });
    expect(attr(parent, 'int.large')).toEqual({ intValue: String(2 ** 40 + 1) });
    expect(attr(parent, 'double')).toEqual({ doubleValue: 3.25 });
    expect(attr(parent, 'bool.false')).toEqual({ boolValue: false });
    expect(attr(parent, 'str.empty')).toEqual({ stringValue: '' });
    expect(attr(parent, 'str.unicode')).toEqual({ stringValue: 'héllo → 世界 🚀' });
    expect(attr(parent, 'array.with_null')).toEqual({
      arrayValue: { values: [{ intValue: '1' }, {}, { intValue: '3' }] },
    });
    expect(attr(parent, 'array.empty')).toEqual({ arrayValue: { values: [] } });

    expect(parent.events).toEqual([
      {
        timeUnixNano: '1700000000500000000',
        name: 'cache.miss',
        attributes: [
          { key: 'cache.key', value: { stringValue: 'k1' } },
          { key: 'cache.size', value: { intValue: '12' } },
        ],
      },
      { timeUnixNano: '1700000001000000000', name: 'no-attributes', attributes: [] },
    ]);
    expect(child.events.map((e: Json) => e.name)).toEqual(['exception']);
    expect(child.links).toEqual([
      {
        traceId: LINKED.traceId,
        spanId: LINKED.spanId,
        traceState: 'vendor=linked',
        attributes: [
          { key: 'link.reason', value: { stringValue: 'retry-of' } },
          { key: 'link.attempt', value: { intValue: '2' } },
        ],
        flags: 0x100,
      },
    ]);
    expect(child.status).toEqual({ code: 2, message: 'boom' });
    expect(byName['remote-child'].status).toEqual({ code: 1, message: '' });
    expect(parent.status).toEqual({ code: 0, message: '' });
  });

  it('decodes bytes and kvlist values the same way the JSON serializer encodes them', () => {
    // The SDK drops Uint8Array/object attribute values, but both serializers encode them; give a
    // real span such attributes by shadowing its `attributes` (everything else is inherited).
    const [real] = recordSpans();
    const span = Object.create(real, {
      attributes: {
        value: {
          blob: new Uint8Array([0, 1, 2, 250, 255]),
          'blob.empty': new Uint8Array([]),
          nested: { a: 'x', b: [1, 2.5], c: { deeper: true } },
        },
      },
    }) as ReadableSpan;
    const { protobuf, json } = serializeBoth([span]);
    const decoded = decodeOtlpProtobuf(protobuf);
    expect(decoded).toStrictEqual(normalizeJsonSerializerOutput(json));
    const [s] = spansOf(decoded);
    expect(attr(s, 'blob')).toEqual({ bytesValue: 'AAEC+v8=' });
    expect(attr(s, 'nested')).toEqual({
      kvlistValue: {
        values: [
          { key: 'a', value: { stringValue: 'x' } },
          { key: 'b', value: { arrayValue: { values: [{ intValue: '1' }, { doubleValue: 2.5 }] } } },
          { key: 'c', value: { kvlistValue: { values: [{ key: 'deeper', value: { boolValue: true } }] } } },
        ],
      },
    });
  });

  it('every truncation of a real body either decodes or throws the malformed error, never anything else', () => {
    const { protobuf } = serializeBoth(recordSpans());
    let failures = 0;
    for (let len = 0; len < protobuf.length; len++) {
      try {
        decodeOtlpProtobuf(protobuf.subarray(0, len));
      } catch (err) {
        expect(LoopscopeError.isInstance(err)).toBe(true);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(protobuf.length / 2);
  });
  it('every single-byte corruption of a real body either decodes or throws the malformed error', () => {
    const { protobuf } = serializeBoth(recordSpans());
    for (let i = 0; i < protobuf.length; i++) {
      for (const replacement of [0x00, 0x7f, 0x80, 0xff, protobuf[i] ^ 0x07]) {
        const corrupt = protobuf.slice();
        corrupt[i] = replacement;
        try {
          decodeOtlpProtobuf(corrupt);
        } catch (err) {
          if (!LoopscopeError.isInstance(err)) throw new Error(`byte ${i} := ${replacement}: ${String(err)}`);
        }
      }
    }
  });
});

describe('decodeOtlpProtobuf — hand-made bodies', () => {
  it('decodes an empty body as an empty request', () => {
    expect(decodeOtlpProtobuf(new Uint8Array(0))).toStrictEqual({ resourceSpans: [] });
  });

  it('fills in proto3 defaults the Go and Python exporters leave off the wire', () => {
    expect(decodeOtlpProtobuf(requestWithSpan(minimalSpan()))).toStrictEqual({
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              scope: { name: '', version: '' },
              spans: [
                {
                  traceId: '0102030405060708090a0b0c0d0e0f10',
                  spanId: 'a1a2a3a4a5a6a7a8',
                  name: 'span',
                  kind: 0,
                  startTimeUnixNano: '0',
                  endTimeUnixNano: '0',
                  attributes: [],
                  events: [],
                  links: [],
                  status: { code: 0, message: '' },
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('merges a status seen twice on the wire (its later set fields win), and names a field in its error', () => {
    const twice = minimalSpan([...ld(15, vint(3, 2)), ...ld(15, str(2, 'boom'))]);
    const span = (decodeOtlpProtobuf(requestWithSpan(twice)) as { resourceSpans: { scopeSpans: { spans: { status: unknown }[] }[] }[] }).resourceSpans[0].scopeSpans[0].spans[0];
    expect(span.status).toStrictEqual({ code: 2, message: 'boom' });
    // The name of a string field sent as a varint is in the error.
    expectMalformed(requestWithSpan(minimalSpan(vint(3, 7))), /Span\.trace_state/);
  });

  it('decodes negative and extreme int64 values as decimal strings (two\'s complement varints)', () => {
    const kv = (key: string, v: bigint) => ld(9, [...str(1, key), ...ld(2, vint(3, v))]);
    const body = requestWithSpan(
      minimalSpan([
        ...kv('minus-one', -1n),
        ...kv('minus-42', -42n),
        ...kv('min', -(2n ** 63n)),
        ...kv('max', 2n ** 63n - 1n),
        ...kv('beyond-safe', 2n ** 53n + 1n),
      ]),
    );
    const [span] = spansOf(decodeOtlpProtobuf(body));
    expect(span.attributes).toEqual([
      { key: 'minus-one', value: { intValue: '-1' } },
      { key: 'minus-42', value: { intValue: '-42' } },
      { key: 'min', value: { intValue: '-9223372036854775808' } },
      { key: 'max', value: { intValue: '9223372036854775807' } },
      { key: 'beyond-safe', value: { intValue: '9007199254740993' } },
    ]);
    // -1 really is the 10-byte encoding.
    expect(varint(-1n)).toHaveLength(10);
  });

  it('decodes full 64-bit fixed64 timestamps exactly', () => {
    const body = requestWithSpan(minimalSpan([...fixed64(7, 2n ** 64n - 1n), ...fixed64(8, 1_700_000_000_123_456_789n)]));
    const [span] = spansOf(decodeOtlpProtobuf(body));
    expect(span.startTimeUnixNano).toBe('18446744073709551615');
    expect(span.endTimeUnixNano).toBe('1700000000123456789');
  });

  it('skips unknown fields of every wire type, at every level', () => {
    const unknowns = [
      ...vint(99, 123456789n),
      ...fixed64(98, 42n),
      ...str(97, 'ignored'),
      ...fixed32(96, 7),
      // A group (wire types 3/4) with a nested group and fields inside.
      ...tag(95, 3),
      ...vint(1, 5),
      ...tag(94, 3),
      ...str(2, 'inner'),
      ...tag(94, 4),
      ...tag(95, 4),
    ];
    const attribute = (extra: number[]) => ld(9, [...str(1, 'k'), ...extra, ...ld(2, [...str(1, 'v'), ...extra])]);
    const plain = requestWithSpan(minimalSpan(attribute([])));
    const noisy = new Uint8Array([
      ...unknowns,
      ...ld(1, [...unknowns, ...ld(2, [...unknowns, ...ld(2, [...unknowns, ...minimalSpan(attribute(unknowns))])])]),
      ...unknowns,
    ]);
    const decoded = decodeOtlpProtobuf(noisy);
    expect(decoded).toStrictEqual(decodeOtlpProtobuf(plain));
    expect(attr(spansOf(decoded)[0], 'k')).toEqual({ stringValue: 'v' });
  });

  it('treats deprecated instrumentation_library_spans (field 1000) like scope_spans', () => {
    const library = [...ld(1, [...str(1, 'old-lib'), ...str(2, '0.9')]), ...ld(2, minimalSpan())];
    const body = new Uint8Array(ld(1, ld(1000, library)));
    const decoded = decodeOtlpProtobuf(body) as Json;
    expect(decoded.resourceSpans[0].scopeSpans).toHaveLength(1);
    expect(decoded.resourceSpans[0].scopeSpans[0].scope).toEqual({ name: 'old-lib', version: '0.9' });
    expect(decoded.resourceSpans[0].scopeSpans[0].spans[0].name).toBe('span');
  });

  it('rejects a truncated body, naming the byte offset', () => {
    const { protobuf } = serializeBoth(recordSpans());
    // Chopping the last byte leaves the outer length prefix (right after the 1-byte tag at 0)
    // claiming one byte more than there is.
    const err = expectMalformed(protobuf.subarray(0, protobuf.length - 1), /exceeds/);
    expect(err.message).toMatch(/at byte offset 1$/);
    // A body cut inside a varint.
    expectMalformed([...tag(2, 0), 0x80, 0x80], /truncated varint .* at byte offset 1$/);
    // A body cut inside a fixed64 timestamp: the 8 bytes would start after the tag.
    const span = minimalSpan();
    const cut = [...ld(1, ld(2, ld(2, [...span, ...tag(7, 1), 1, 2, 3])))];
    const fixedAt = cut.length - 3;
    expectMalformed(cut, new RegExp(`truncated Span\\.start_time_unix_nano: needs 8 bytes, 3 left at byte offset ${fixedAt}$`));
  });

  it('rejects a length prefix beyond the end without allocating it', () => {
    expectMalformed([...tag(1, 2), ...varint(5), 0, 0], /length prefix 5 .*exceeds the 2 bytes left at byte offset 1$/);
    // 2^62: must be rejected up front, not allocated.
    expectMalformed([...tag(1, 2), ...varint(2n ** 62n), 0], /length prefix 4611686018427387904/);
    // A nested message whose prefix fits the body but not its enclosing message.
    const inner = [...tag(5, 2), ...varint(50), ...new Array(10).fill(0x41)];
    expectMalformed([...ld(1, ld(2, ld(2, inner))), ...new Array(60).fill(0)], /Span\.name.*exceeds/);
  });

  it('rejects invalid wire types, wire-type mismatches and broken groups', () => {
    expectMalformed([...tag(1, 6)], /invalid wire type 6/);
    expectMalformed([...tag(1, 7)], /invalid wire type 7/);
    expectMalformed([0x00], /field number 0/);
    expectMalformed(requestWithSpan(minimalSpan(vint(7, 5))), /start_time_unix_nano .*wire type varint, expected fixed64/);
    expectMalformed([...tag(9, 3), ...vint(1, 1)], /unterminated group/);
    expectMalformed([...tag(9, 3), ...tag(8, 4)], /does not match/);
    expectMalformed([...tag(9, 4)], /unexpected end-group/);
    expectMalformed([...tag(2, 0), ...new Array(10).fill(0xff), 0x01], /varint longer than 10 bytes/);
  });

  it('rejects invalid UTF-8 in strings', () => {
    expectMalformed(requestWithSpan([...ld(5, [0xc3, 0x28])]), /invalid UTF-8 in Span\.name/);
  });

  it('rejects absurdly deep AnyValue nesting instead of overflowing the stack', () => {
    let value = str(1, 'leaf');
    for (let i = 0; i < 200; i++) value = ld(5, ld(1, value));
    const body = requestWithSpan(minimalSpan(ld(9, [...str(1, 'deep'), ...ld(2, value)])));
    expectMalformed(body, /nested too deeply/);
  });

  // The limit counts the levels of the OTLP JSON the body becomes, as for a JSON body: an
  // attribute's AnyValue object sits 10 levels down, and each kvlist adds 4
  // ({kvlistValue: {values: [{key, value: …}]}}), each array 3.
  const kvlists = (levels: number) => {
    let value = str(1, 'leaf');
    for (let i = 0; i < levels; i++) value = ld(6, ld(1, [...str(1, 'k'), ...ld(2, value)]));
    return requestWithSpan(minimalSpan(ld(9, [...str(1, 'deep'), ...ld(2, value)])));
  };
  const arrays = (levels: number) => {
    let value = str(1, 'leaf');
    for (let i = 0; i < levels; i++) value = ld(5, ld(1, value));
    return requestWithSpan(minimalSpan(ld(9, [...str(1, 'deep'), ...ld(2, value)])));
  };

  it('holds nested AnyValues to the JSON nesting limit (128 levels as OTLP JSON)', () => {
    // 29 kvlists: 10 + 4 × 29 = 126 levels; 39 arrays: 10 + 3 × 39 = 127.
    for (const body of [kvlists(29), arrays(39)]) {
      const decoded = decodeOtlpProtobuf(body);
      expect(valueNestingDepth(decoded)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
      expect(JSON.stringify(decoded)).toContain('"stringValue":"leaf"');
    }
    // 30 kvlists (130 levels) and 40 arrays (130) are past it, though far below the 64 AnyValues once allowed.
    for (const body of [kvlists(30), arrays(40)]) {
      expect(expectMalformed(body, /AnyValue nested too deeply/).message).toContain(`past the limit of ${MAX_JSON_DEPTH} levels`);
    }
  });

  it('accepts a Uint8Array view into a larger buffer (byteOffset ≠ 0)', () => {
    const body = requestWithSpan(minimalSpan(ld(9, [...str(1, 'd'), ...ld(2, [...tag(4, 1), ...new Uint8Array(new Float64Array([6.5]).buffer)])])));
    const padded = new Uint8Array(body.length + 7);
    padded.set(body, 3);
    const [span] = spansOf(decodeOtlpProtobuf(padded.subarray(3, 3 + body.length)));
    expect(attr(span, 'd')).toEqual({ doubleValue: 6.5 });
  });
});
