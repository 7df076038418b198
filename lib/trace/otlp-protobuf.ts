/**
 * OTLP/HTTP protobuf (`application/x-protobuf`) → OTLP JSON.
 *
 * Decodes an `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` body into the
 * object the OTLP JSON encoding would have carried, so the JSON decoder (`otlp-json`) is the only
 * place that interprets spans. A small hand-rolled wire-format reader, no dependency.
 *
 * Output conventions (proto3 JSON mapping, as OTLP/JSON specifies it):
 * - trace/span ids as lowercase hex, bytes_value as base64;
 * - 64-bit integers (times, int_value) as decimal strings;
 * - enums (kind, status code) as numbers;
 * - repeated fields always present (possibly empty arrays); `resource`, `scope`, `status` always
 *   present; span/event `name`, `kind`, times and status `code`/`message` always present (defaults
 *   filled in when absent from the wire, as Go/Python exporters omit proto3 defaults);
 * - optional extras (`traceState`, `parentSpanId`, `schemaUrl`, dropped counts, `flags`, scope
 *   `attributes`) only when non-default.
 *
 * Hostile input: every length prefix is checked against the bytes remaining in its enclosing
 * message before anything is read or allocated, varints are capped at 10 bytes, AnyValue nesting
 * is capped, and each loop iteration consumes at least one byte — so decoding is linear in the
 * input and never loops forever.
 */
import { LoopscopeError } from '../errors';

/** Deepest AnyValue nesting (arrays/kvlists inside each other) accepted; guards the stack. */
const MAX_ANY_VALUE_DEPTH = 64;
/** Deepest nesting of (deprecated) groups skipped as unknown fields. */
const MAX_GROUP_DEPTH = 64;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

const WIRE_TYPE_NAMES = ['varint', 'fixed64', 'length-delimited', 'start-group', 'end-group', 'fixed32'];

const utf8 = new TextDecoder('utf-8', { fatal: true });

function malformed(what: string, offset: number): LoopscopeError {
  return new LoopscopeError('INVALID_ARGUMENT', `OTLP protobuf body is malformed: ${what} at byte offset ${offset}`);
}

interface Tag {
  field: number;
  wireType: number;
  /** Absolute offset of the tag's first byte (for error messages). */
  offset: number;
}

/**
 * Reads one message: the bytes [pos, end) of a shared buffer. Offsets are absolute within the
 * whole body so error messages point at the real byte.
 */
class Reader {
  /** Low/high 32 bits of the last varint read (avoids allocating per varint). */
  private lo = 0;
  private hi = 0;

  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  readTag(): Tag {
    const offset = this.pos;
    this.readVarintRaw('field tag');
    const wireType = this.lo & 7;
    // Field numbers are 29 bits; a tag with high bits set is not a valid tag.
    if (this.hi !== 0) throw malformed('field tag exceeds 32 bits', offset);
    const field = this.lo >>> 3;
    if (field === 0) throw malformed('field number 0', offset);
    if (wireType > WIRE_FIXED32) throw malformed(`invalid wire type ${wireType} for field ${field}`, offset);
    return { field, wireType, offset };
  }

  /** Reads a varint into `lo`/`hi` (two's-complement 64 bits). */
  private readVarintRaw(what: string): void {
    const start = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed(`truncated varint (${what})`, start);
      const b = this.buf[this.pos++];
      if (i < 4) {
        lo |= (b & 0x7f) << (7 * i);
      } else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >>> 4;
      } else {
        hi |= (b & 0x7f) << (7 * i - 32);
      }
      if ((b & 0x80) === 0) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw malformed(`varint longer than 10 bytes (${what})`, start);
  }

  /** uint32 fields (dropped counts): the low 32 bits, as protobuf parsers do. */
  readUint32(what: string): number {
    this.readVarintRaw(what);
    return this.lo;
  }

  /** int32 / enum fields: the low 32 bits as signed (negative enums are sign-extended on the wire). */
  readInt32(what: string): number {
    this.readVarintRaw(what);
    return this.lo | 0;
  }

  readBool(what: string): boolean {
    this.readVarintRaw(what);
    return this.lo !== 0 || this.hi !== 0;
  }

  /** int64 as a decimal string (two's complement, so negatives come out negative). */
  readInt64String(what: string): string {
    this.readVarintRaw(what);
    return BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo)).toString();
  }

  private need(n: number, what: string): number {
    const start = this.pos;
    if (this.end - start < n) {
      throw malformed(`truncated ${what}: needs ${n} bytes, ${this.end - start} left`, start);
    }
    this.pos += n;
    return start;
  }

  /** fixed64 as an unsigned decimal string. */
  readFixed64String(what: string): string {
    const p = this.need(8, what);
    const b = this.buf;
    const lo = (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
    const hi = (b[p + 4] | (b[p + 5] << 8) | (b[p + 6] << 16) | (b[p + 7] << 24)) >>> 0;
    return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
  }

  readDouble(what: string): number {
    const p = this.need(8, what);
    return new DataView(this.buf.buffer, this.buf.byteOffset + p, 8).getFloat64(0, true);
  }

  readFixed32(what: string): number {
    const p = this.need(4, what);
    const b = this.buf;
    return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  }

  /** Reads a length prefix and returns [start, end) of the payload, already bounds-checked. */
  private readLengthDelimited(what: string): [number, number] {
    const prefixAt = this.pos;
    this.readVarintRaw(`length of ${what}`);
    const remaining = this.end - this.pos;
    if (this.hi !== 0 || this.lo > remaining) {
      const len = this.hi !== 0 ? ((BigInt(this.hi) << 32n) | BigInt(this.lo)).toString() : String(this.lo);
      throw malformed(`length prefix ${len} of ${what} exceeds the ${remaining} bytes left`, prefixAt);
    }
    const start = this.pos;
    this.pos += this.lo;
    return [start, this.pos];
  }

  readSubMessage(what: string): Reader {
    const [start, end] = this.readLengthDelimited(what);
    return new Reader(this.buf, start, end);
  }

  readBytes(what: string): Uint8Array {
    const [start, end] = this.readLengthDelimited(what);
    return this.buf.subarray(start, end);
  }

  readString(what: string): string {
    const [start, end] = this.readLengthDelimited(what);
    try {
      return utf8.decode(this.buf.subarray(start, end));
    } catch {
      throw malformed(`invalid UTF-8 in ${what}`, start);
    }
  }

  readHex(what: string): string {
    const bytes = this.readBytes(what);
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
    return out;
  }

  readBase64(what: string): string {
    return Buffer.from(this.readBytes(what)).toString('base64');
  }

  /** Skips the value of a field we do not know (or do not use), whatever its wire type. */
  skip(tag: Tag): void {
    switch (tag.wireType) {
      case WIRE_VARINT:
        this.readVarintRaw(`field ${tag.field}`);
        return;
      case WIRE_FIXED64:
        this.need(8, `fixed64 field ${tag.field}`);
        return;
      case WIRE_LEN:
        this.readLengthDelimited(`field ${tag.field}`);
        return;
      case WIRE_FIXED32:
        this.need(4, `fixed32 field ${tag.field}`);
        return;
      case WIRE_START_GROUP:
        this.skipGroup(tag);
        return;
      case WIRE_END_GROUP:
        throw malformed(`unexpected end-group for field ${tag.field}`, tag.offset);
      default:
        throw malformed(`invalid wire type ${tag.wireType} for field ${tag.field}`, tag.offset);
    }
  }

  /** Skips a (deprecated) group up to its matching end-group tag, iteratively. */
  private skipGroup(open: Tag): void {
    const stack: number[] = [open.field];
    while (stack.length > 0) {
      if (this.atEnd()) throw malformed(`unterminated group for field ${open.field}`, open.offset);
      const tag = this.readTag();
      if (tag.wireType === WIRE_START_GROUP) {
        if (stack.length >= MAX_GROUP_DEPTH) throw malformed('groups nested too deeply', tag.offset);
        stack.push(tag.field);
      } else if (tag.wireType === WIRE_END_GROUP) {
        const expected = stack.pop();
        if (tag.field !== expected) {
          throw malformed(`end-group for field ${tag.field} does not match open group ${expected}`, tag.offset);
        }
      } else {
        this.skip(tag);
      }
    }
  }
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A known field arrived with a wire type its schema never uses. */
function expectWireType(tag: Tag, wireType: number, what: string): void {
  if (tag.wireType !== wireType) {
    throw malformed(
      `${what} (field ${tag.field}) has wire type ${WIRE_TYPE_NAMES[tag.wireType] ?? tag.wireType}, expected ${WIRE_TYPE_NAMES[wireType]}`,
      tag.offset,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// JSON shapes produced (subset of OTLP JSON; see module comment for which fields are optional).

type JsonAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: JsonAnyValue[] } }
  | { kvlistValue: { values: JsonKeyValue[] } }
  | { bytesValue: string }
  | Record<string, never>;

interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}

type JsonObject = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// common/v1

function decodeAnyValue(r: Reader, depth: number): JsonAnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw malformed('AnyValue nested too deeply', r.pos);
  // `value` is a oneof: the last member on the wire wins, as in every protobuf parser.
  let value: JsonAnyValue = {};
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, 'AnyValue.string_value');
        value = { stringValue: r.readString('AnyValue.string_value') };
        break;
      case 2:
        expectWireType(tag, WIRE_VARINT, 'AnyValue.bool_value');
        value = { boolValue: r.readBool('AnyValue.bool_value') };
        break;
      case 3:
        expectWireType(tag, WIRE_VARINT, 'AnyValue.int_value');
        value = { intValue: r.readInt64String('AnyValue.int_value') };
        break;
      case 4:
        expectWireType(tag, WIRE_FIXED64, 'AnyValue.double_value');
        value = { doubleValue: r.readDouble('AnyValue.double_value') };
        break;
      case 5: {
        expectWireType(tag, WIRE_LEN, 'AnyValue.array_value');
        const sub = r.readSubMessage('AnyValue.array_value');
        const values: JsonAnyValue[] = [];
        while (!sub.atEnd()) {
          const t = sub.readTag();
          if (t.field === 1) {
            expectWireType(t, WIRE_LEN, 'ArrayValue.values');
            values.push(decodeAnyValue(sub.readSubMessage('ArrayValue.values'), depth + 1));
          } else {
            sub.skip(t);
          }
        }
        value = { arrayValue: { values } };
        break;
      }
      case 6: {
        expectWireType(tag, WIRE_LEN, 'AnyValue.kvlist_value');
        const sub = r.readSubMessage('AnyValue.kvlist_value');
        const values: JsonKeyValue[] = [];
        while (!sub.atEnd()) {
          const t = sub.readTag();
          if (t.field === 1) {
            expectWireType(t, WIRE_LEN, 'KeyValueList.values');
            values.push(decodeKeyValue(sub.readSubMessage('KeyValueList.values'), depth + 1));
          } else {
            sub.skip(t);
          }
        }
        value = { kvlistValue: { values } };
        break;
      }
      case 7:
        expectWireType(tag, WIRE_LEN, 'AnyValue.bytes_value');
        value = { bytesValue: r.readBase64('AnyValue.bytes_value') };
        break;
      default:
        r.skip(tag);
    }
  }
  return value;
}

function decodeKeyValue(r: Reader, depth: number): JsonKeyValue {
  let key = '';
  let value: JsonAnyValue = {};
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) {
      expectWireType(tag, WIRE_LEN, 'KeyValue.key');
      key = r.readString('KeyValue.key');
    } else if (tag.field === 2) {
      expectWireType(tag, WIRE_LEN, 'KeyValue.value');
      value = decodeAnyValue(r.readSubMessage('KeyValue.value'), depth);
    } else {
      r.skip(tag);
    }
  }
  return { key, value };
}

/** Reads one repeated-KeyValue element (the tag has been read) and appends it. */
function pushAttribute(r: Reader, tag: Tag, attributes: JsonKeyValue[], what: string): void {
  expectWireType(tag, WIRE_LEN, what);
  attributes.push(decodeKeyValue(r.readSubMessage(what), 0));
}

function decodeResource(r: Reader): JsonObject {
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) {
      pushAttribute(r, tag, attributes, 'Resource.attributes');
    } else if (tag.field === 2) {
      expectWireType(tag, WIRE_VARINT, 'Resource.dropped_attributes_count');
      dropped = r.readUint32('Resource.dropped_attributes_count');
    } else {
      r.skip(tag);
    }
  }
  const out: JsonObject = { attributes };
  if (dropped) out.droppedAttributesCount = dropped;
  return out;
}

/** InstrumentationScope, and the deprecated InstrumentationLibrary (same fields 1 and 2). */
function decodeScope(r: Reader): JsonObject {
  let name = '';
  let version = '';
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, 'InstrumentationScope.name');
        name = r.readString('InstrumentationScope.name');
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, 'InstrumentationScope.version');
        version = r.readString('InstrumentationScope.version');
        break;
      case 3:
        pushAttribute(r, tag, attributes, 'InstrumentationScope.attributes');
        break;
      case 4:
        expectWireType(tag, WIRE_VARINT, 'InstrumentationScope.dropped_attributes_count');
        dropped = r.readUint32('InstrumentationScope.dropped_attributes_count');
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { name, version };
  if (attributes.length > 0) out.attributes = attributes;
  if (dropped) out.droppedAttributesCount = dropped;
  return out;
}

// ---------------------------------------------------------------------------------------------
// trace/v1

function decodeEvent(r: Reader): JsonObject {
  let timeUnixNano = '0';
  let name = '';
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_FIXED64, 'Span.Event.time_unix_nano');
        timeUnixNano = r.readFixed64String('Span.Event.time_unix_nano');
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, 'Span.Event.name');
        name = r.readString('Span.Event.name');
        break;
      case 3:
        pushAttribute(r, tag, attributes, 'Span.Event.attributes');
        break;
      case 4:
        expectWireType(tag, WIRE_VARINT, 'Span.Event.dropped_attributes_count');
        dropped = r.readUint32('Span.Event.dropped_attributes_count');
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { timeUnixNano, name, attributes };
  if (dropped) out.droppedAttributesCount = dropped;
  return out;
}

function decodeLink(r: Reader): JsonObject {
  let traceId = '';
  let spanId = '';
  let traceState = '';
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  let flags = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, 'Span.Link.trace_id');
        traceId = r.readHex('Span.Link.trace_id');
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, 'Span.Link.span_id');
        spanId = r.readHex('Span.Link.span_id');
        break;
      case 3:
        expectWireType(tag, WIRE_LEN, 'Span.Link.trace_state');
        traceState = r.readString('Span.Link.trace_state');
        break;
      case 4:
        pushAttribute(r, tag, attributes, 'Span.Link.attributes');
        break;
      case 5:
        expectWireType(tag, WIRE_VARINT, 'Span.Link.dropped_attributes_count');
        dropped = r.readUint32('Span.Link.dropped_attributes_count');
        break;
      case 6:
        expectWireType(tag, WIRE_FIXED32, 'Span.Link.flags');
        flags = r.readFixed32('Span.Link.flags');
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { traceId, spanId };
  if (traceState) out.traceState = traceState;
  out.attributes = attributes;
  if (dropped) out.droppedAttributesCount = dropped;
  if (flags) out.flags = flags;
  return out;
}

function decodeStatus(r: Reader): { code: number; message: string } {
  let code = 0;
  let message = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 2) {
      expectWireType(tag, WIRE_LEN, 'Status.message');
      message = r.readString('Status.message');
    } else if (tag.field === 3) {
      expectWireType(tag, WIRE_VARINT, 'Status.code');
      code = r.readInt32('Status.code');
    } else {
      // Field 1 is the long-deprecated `deprecated_code`; skipped like any unknown field.
      r.skip(tag);
    }
  }
  return { code, message };
}

function decodeSpan(r: Reader): JsonObject {
  let traceId = '';
  let spanId = '';
  let traceState = '';
  let parentSpanId = '';
  let name = '';
  let kind = 0;
  let startTimeUnixNano = '0';
  let endTimeUnixNano = '0';
  const attributes: JsonKeyValue[] = [];
  let droppedAttributesCount = 0;
  const events: JsonObject[] = [];
  let droppedEventsCount = 0;
  const links: JsonObject[] = [];
  let droppedLinksCount = 0;
  let status = { code: 0, message: '' };
  let flags = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, 'Span.trace_id');
        traceId = r.readHex('Span.trace_id');
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, 'Span.span_id');
        spanId = r.readHex('Span.span_id');
        break;
      case 3:
        expectWireType(tag, WIRE_LEN, 'Span.trace_state');
        traceState = r.readString('Span.trace_state');
        break;
      case 4:
        expectWireType(tag, WIRE_LEN, 'Span.parent_span_id');
        parentSpanId = r.readHex('Span.parent_span_id');
        break;
      case 5:
        expectWireType(tag, WIRE_LEN, 'Span.name');
        name = r.readString('Span.name');
        break;
      case 6:
        expectWireType(tag, WIRE_VARINT, 'Span.kind');
        kind = r.readInt32('Span.kind');
        break;
      case 7:
        expectWireType(tag, WIRE_FIXED64, 'Span.start_time_unix_nano');
        startTimeUnixNano = r.readFixed64String('Span.start_time_unix_nano');
        break;
      case 8:
        expectWireType(tag, WIRE_FIXED64, 'Span.end_time_unix_nano');
        endTimeUnixNano = r.readFixed64String('Span.end_time_unix_nano');
        break;
      case 9:
        pushAttribute(r, tag, attributes, 'Span.attributes');
        break;
      case 10:
        expectWireType(tag, WIRE_VARINT, 'Span.dropped_attributes_count');
        droppedAttributesCount = r.readUint32('Span.dropped_attributes_count');
        break;
      case 11:
        expectWireType(tag, WIRE_LEN, 'Span.events');
        events.push(decodeEvent(r.readSubMessage('Span.events')));
        break;
      case 12:
        expectWireType(tag, WIRE_VARINT, 'Span.dropped_events_count');
        droppedEventsCount = r.readUint32('Span.dropped_events_count');
        break;
      case 13:
        expectWireType(tag, WIRE_LEN, 'Span.links');
        links.push(decodeLink(r.readSubMessage('Span.links')));
        break;
      case 14:
        expectWireType(tag, WIRE_VARINT, 'Span.dropped_links_count');
        droppedLinksCount = r.readUint32('Span.dropped_links_count');
        break;
      case 15:
        // A message field repeated on the wire merges; Status only has scalars, so the later
        // occurrence's set fields win.
        expectWireType(tag, WIRE_LEN, 'Span.status');
        status = mergeStatus(status, r.readSubMessage('Span.status'));
        break;
      case 16:
        expectWireType(tag, WIRE_FIXED32, 'Span.flags');
        flags = r.readFixed32('Span.flags');
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { traceId, spanId };
  if (traceState) out.traceState = traceState;
  if (parentSpanId) out.parentSpanId = parentSpanId;
  out.name = name;
  out.kind = kind;
  out.startTimeUnixNano = startTimeUnixNano;
  out.endTimeUnixNano = endTimeUnixNano;
  out.attributes = attributes;
  if (droppedAttributesCount) out.droppedAttributesCount = droppedAttributesCount;
  out.events = events;
  if (droppedEventsCount) out.droppedEventsCount = droppedEventsCount;
  out.links = links;
  if (droppedLinksCount) out.droppedLinksCount = droppedLinksCount;
  out.status = status;
  if (flags) out.flags = flags;
  return out;
}

function mergeStatus(prev: { code: number; message: string }, r: Reader): { code: number; message: string } {
  const next = decodeStatus(r);
  return { code: next.code || prev.code, message: next.message || prev.message };
}

/** ScopeSpans, and the deprecated InstrumentationLibrarySpans (identical field layout). */
function decodeScopeSpans(r: Reader, what: string): JsonObject {
  let scope: JsonObject = { name: '', version: '' };
  const spans: JsonObject[] = [];
  let schemaUrl = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, `${what}.scope`);
        scope = decodeScope(r.readSubMessage(`${what}.scope`));
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, `${what}.spans`);
        spans.push(decodeSpan(r.readSubMessage(`${what}.spans`)));
        break;
      case 3:
        expectWireType(tag, WIRE_LEN, `${what}.schema_url`);
        schemaUrl = r.readString(`${what}.schema_url`);
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { scope, spans };
  if (schemaUrl) out.schemaUrl = schemaUrl;
  return out;
}

function decodeResourceSpans(r: Reader): JsonObject {
  let resource: JsonObject = { attributes: [] };
  const scopeSpans: JsonObject[] = [];
  let schemaUrl = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        expectWireType(tag, WIRE_LEN, 'ResourceSpans.resource');
        resource = decodeResource(r.readSubMessage('ResourceSpans.resource'));
        break;
      case 2:
        expectWireType(tag, WIRE_LEN, 'ResourceSpans.scope_spans');
        scopeSpans.push(decodeScopeSpans(r.readSubMessage('ResourceSpans.scope_spans'), 'ScopeSpans'));
        break;
      case 3:
        expectWireType(tag, WIRE_LEN, 'ResourceSpans.schema_url');
        schemaUrl = r.readString('ResourceSpans.schema_url');
        break;
      case 1000:
        // Deprecated `instrumentation_library_spans` (pre-0.15 OTLP): same layout as ScopeSpans.
        expectWireType(tag, WIRE_LEN, 'ResourceSpans.instrumentation_library_spans');
        scopeSpans.push(
          decodeScopeSpans(
            r.readSubMessage('ResourceSpans.instrumentation_library_spans'),
            'InstrumentationLibrarySpans',
          ),
        );
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { resource, scopeSpans };
  if (schemaUrl) out.schemaUrl = schemaUrl;
  return out;
}

/**
 * Decodes an OTLP/HTTP protobuf trace export body (`ExportTraceServiceRequest`) into the
 * equivalent OTLP JSON object (`{ resourceSpans: [...] }`). An empty body is a valid, empty
 * request. Throws `LoopscopeError('INVALID_ARGUMENT')` naming the problem and its byte offset when
 * the body is truncated or not valid protobuf.
 */
export function decodeOtlpProtobuf(bytes: Uint8Array): unknown {
  const r = new Reader(bytes, 0, bytes.length);
  const resourceSpans: JsonObject[] = [];
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) {
      expectWireType(tag, WIRE_LEN, 'ExportTraceServiceRequest.resource_spans');
      resourceSpans.push(decodeResourceSpans(r.readSubMessage('ExportTraceServiceRequest.resource_spans')));
    } else {
      r.skip(tag);
    }
  }
  return { resourceSpans };
}
