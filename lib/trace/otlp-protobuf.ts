/**
 * OTLP/HTTP protobuf (`application/x-protobuf`) → OTLP JSON.
 *
 * Decodes an `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` body into the
 * object the OTLP JSON encoding would have carried, so the JSON decoder (`otlp-json`) is the only
 * place that interprets spans. The wire format is read by the small hand-rolled
 * `ProtobufWireReader` (protobuf-wire-reader.ts), no dependency.
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
import { malformed, ProtobufWireReader, type Tag } from './protobuf-wire-reader';

/** Deepest AnyValue nesting (arrays/kvlists inside each other) accepted; guards the stack. */
const MAX_ANY_VALUE_DEPTH = 64;

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

/**
 * The elements of the one repeated message field (number 1) of a wrapper message such as
 * ArrayValue, KeyValueList or ExportTraceServiceRequest; other fields are skipped.
 */
function decodeRepeatedField1<T>(r: ProtobufWireReader, what: string, decode: (element: ProtobufWireReader) => T): T[] {
  const values: T[] = [];
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) values.push(decode(r.messageField(tag, what)));
    else r.skip(tag);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// common/v1

function decodeAnyValue(r: ProtobufWireReader, depth: number): JsonAnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw malformed('AnyValue nested too deeply', r.pos);
  // `value` is a oneof: the last member on the wire wins, as in every protobuf parser.
  let value: JsonAnyValue = {};
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        value = { stringValue: r.stringField(tag, 'AnyValue.string_value') };
        break;
      case 2:
        value = { boolValue: r.boolField(tag, 'AnyValue.bool_value') };
        break;
      case 3:
        value = { intValue: r.int64Field(tag, 'AnyValue.int_value') };
        break;
      case 4:
        value = { doubleValue: r.doubleField(tag, 'AnyValue.double_value') };
        break;
      case 5: {
        const list = r.messageField(tag, 'AnyValue.array_value');
        value = { arrayValue: { values: decodeRepeatedField1(list, 'ArrayValue.values', (element) => decodeAnyValue(element, depth + 1)) } };
        break;
      }
      case 6: {
        const list = r.messageField(tag, 'AnyValue.kvlist_value');
        value = { kvlistValue: { values: decodeRepeatedField1(list, 'KeyValueList.values', (element) => decodeKeyValue(element, depth + 1)) } };
        break;
      }
      case 7:
        value = { bytesValue: r.base64Field(tag, 'AnyValue.bytes_value') };
        break;
      default:
        r.skip(tag);
    }
  }
  return value;
}

function decodeKeyValue(r: ProtobufWireReader, depth: number): JsonKeyValue {
  let key = '';
  let value: JsonAnyValue = {};
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) key = r.stringField(tag, 'KeyValue.key');
    else if (tag.field === 2) value = decodeAnyValue(r.messageField(tag, 'KeyValue.value'), depth);
    else r.skip(tag);
  }
  return { key, value };
}

/** Reads one repeated-KeyValue element (the tag has been read) and appends it. */
function pushAttribute(r: ProtobufWireReader, tag: Tag, attributes: JsonKeyValue[], what: string): void {
  attributes.push(decodeKeyValue(r.messageField(tag, what), 0));
}

function decodeResource(r: ProtobufWireReader): JsonObject {
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) pushAttribute(r, tag, attributes, 'Resource.attributes');
    else if (tag.field === 2) dropped = r.uint32Field(tag, 'Resource.dropped_attributes_count');
    else r.skip(tag);
  }
  const out: JsonObject = { attributes };
  if (dropped) out.droppedAttributesCount = dropped;
  return out;
}

/** InstrumentationScope, and the deprecated InstrumentationLibrary (same fields 1 and 2). */
function decodeScope(r: ProtobufWireReader): JsonObject {
  let name = '';
  let version = '';
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        name = r.stringField(tag, 'InstrumentationScope.name');
        break;
      case 2:
        version = r.stringField(tag, 'InstrumentationScope.version');
        break;
      case 3:
        pushAttribute(r, tag, attributes, 'InstrumentationScope.attributes');
        break;
      case 4:
        dropped = r.uint32Field(tag, 'InstrumentationScope.dropped_attributes_count');
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

function decodeEvent(r: ProtobufWireReader): JsonObject {
  let timeUnixNano = '0';
  let name = '';
  const attributes: JsonKeyValue[] = [];
  let dropped = 0;
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        timeUnixNano = r.fixed64Field(tag, 'Span.Event.time_unix_nano');
        break;
      case 2:
        name = r.stringField(tag, 'Span.Event.name');
        break;
      case 3:
        pushAttribute(r, tag, attributes, 'Span.Event.attributes');
        break;
      case 4:
        dropped = r.uint32Field(tag, 'Span.Event.dropped_attributes_count');
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { timeUnixNano, name, attributes };
  if (dropped) out.droppedAttributesCount = dropped;
  return out;
}

function decodeLink(r: ProtobufWireReader): JsonObject {
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
        traceId = r.hexField(tag, 'Span.Link.trace_id');
        break;
      case 2:
        spanId = r.hexField(tag, 'Span.Link.span_id');
        break;
      case 3:
        traceState = r.stringField(tag, 'Span.Link.trace_state');
        break;
      case 4:
        pushAttribute(r, tag, attributes, 'Span.Link.attributes');
        break;
      case 5:
        dropped = r.uint32Field(tag, 'Span.Link.dropped_attributes_count');
        break;
      case 6:
        flags = r.fixed32Field(tag, 'Span.Link.flags');
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

function decodeStatus(r: ProtobufWireReader): { code: number; message: string } {
  let code = 0;
  let message = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 2) message = r.stringField(tag, 'Status.message');
    else if (tag.field === 3) code = r.int32Field(tag, 'Status.code');
    // Field 1 is the long-deprecated `deprecated_code`; skipped like any unknown field.
    else r.skip(tag);
  }
  return { code, message };
}

function decodeSpan(r: ProtobufWireReader): JsonObject {
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
        traceId = r.hexField(tag, 'Span.trace_id');
        break;
      case 2:
        spanId = r.hexField(tag, 'Span.span_id');
        break;
      case 3:
        traceState = r.stringField(tag, 'Span.trace_state');
        break;
      case 4:
        parentSpanId = r.hexField(tag, 'Span.parent_span_id');
        break;
      case 5:
        name = r.stringField(tag, 'Span.name');
        break;
      case 6:
        kind = r.int32Field(tag, 'Span.kind');
        break;
      case 7:
        startTimeUnixNano = r.fixed64Field(tag, 'Span.start_time_unix_nano');
        break;
      case 8:
        endTimeUnixNano = r.fixed64Field(tag, 'Span.end_time_unix_nano');
        break;
      case 9:
        pushAttribute(r, tag, attributes, 'Span.attributes');
        break;
      case 10:
        droppedAttributesCount = r.uint32Field(tag, 'Span.dropped_attributes_count');
        break;
      case 11:
        events.push(decodeEvent(r.messageField(tag, 'Span.events')));
        break;
      case 12:
        droppedEventsCount = r.uint32Field(tag, 'Span.dropped_events_count');
        break;
      case 13:
        links.push(decodeLink(r.messageField(tag, 'Span.links')));
        break;
      case 14:
        droppedLinksCount = r.uint32Field(tag, 'Span.dropped_links_count');
        break;
      case 15:
        // A message field repeated on the wire merges; Status only has scalars, so the later
        // occurrence's set fields win.
        status = mergeStatus(status, r.messageField(tag, 'Span.status'));
        break;
      case 16:
        flags = r.fixed32Field(tag, 'Span.flags');
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

function mergeStatus(prev: { code: number; message: string }, r: ProtobufWireReader): { code: number; message: string } {
  const next = decodeStatus(r);
  return { code: next.code || prev.code, message: next.message || prev.message };
}

/** ScopeSpans, and the deprecated InstrumentationLibrarySpans (identical field layout). */
function decodeScopeSpans(r: ProtobufWireReader, what: string): JsonObject {
  let scope: JsonObject = { name: '', version: '' };
  const spans: JsonObject[] = [];
  let schemaUrl = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        scope = decodeScope(r.messageField(tag, `${what}.scope`));
        break;
      case 2:
        spans.push(decodeSpan(r.messageField(tag, `${what}.spans`)));
        break;
      case 3:
        schemaUrl = r.stringField(tag, `${what}.schema_url`);
        break;
      default:
        r.skip(tag);
    }
  }
  const out: JsonObject = { scope, spans };
  if (schemaUrl) out.schemaUrl = schemaUrl;
  return out;
}

function decodeResourceSpans(r: ProtobufWireReader): JsonObject {
  let resource: JsonObject = { attributes: [] };
  const scopeSpans: JsonObject[] = [];
  let schemaUrl = '';
  while (!r.atEnd()) {
    const tag = r.readTag();
    switch (tag.field) {
      case 1:
        resource = decodeResource(r.messageField(tag, 'ResourceSpans.resource'));
        break;
      case 2:
        scopeSpans.push(decodeScopeSpans(r.messageField(tag, 'ResourceSpans.scope_spans'), 'ScopeSpans'));
        break;
      case 3:
        schemaUrl = r.stringField(tag, 'ResourceSpans.schema_url');
        break;
      case 1000:
        // Deprecated `instrumentation_library_spans` (pre-0.15 OTLP): same layout as ScopeSpans.
        scopeSpans.push(decodeScopeSpans(r.messageField(tag, 'ResourceSpans.instrumentation_library_spans'), 'InstrumentationLibrarySpans'));
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
  const r = new ProtobufWireReader(bytes, 0, bytes.length);
  return { resourceSpans: decodeRepeatedField1(r, 'ExportTraceServiceRequest.resource_spans', decodeResourceSpans) };
}
