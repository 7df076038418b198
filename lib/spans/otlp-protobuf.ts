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
import type { LoopscopeError } from '../errors';
import { MAX_JSON_DEPTH } from './parse-json-limited';
import { malformed, ProtobufWireReader, type Tag } from './protobuf-wire-reader';

/**
 * AnyValue nests (arrays and kvlists inside each other) and is decoded recursively. Depths
 * below count the levels of the OTLP JSON object being built, so a protobuf body is held to
 * the very limit a JSON body is (parse-json-limited.ts): what the JSON decoder gets next is
 * never deeper than MAX_JSON_DEPTH either way.
 */
function tooDeep(offset: number): LoopscopeError {
  return malformed(`AnyValue nested too deeply (past the limit of ${MAX_JSON_DEPTH} levels, counted as OTLP JSON)`, offset);
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

/**
 * The elements of the one repeated message field (number 1) of a wrapper message such as
 * ArrayValue, KeyValueList or ExportTraceServiceRequest; other fields are skipped.
 */
function decodeRepeatedField1<T>({ reader, what, decode }: { reader: ProtobufWireReader; what: string; decode: (element: ProtobufWireReader) => T }): T[] {
  const values: T[] = [];
  while (!reader.atEnd()) {
    const tag = reader.readTag();
    if (tag.field === 1) values.push(decode(reader.messageField(tag, what)));
    else reader.skip(tag);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// common/v1

/** An AnyValue that becomes an object at JSON depth `depth`; its array or kvlist opens two more levels. */
function decodeAnyValue(r: ProtobufWireReader, depth: number): JsonAnyValue {
  if (depth > MAX_JSON_DEPTH) throw tooDeep(r.pos);
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
        if (depth + 2 > MAX_JSON_DEPTH) throw tooDeep(tag.offset);
        // {arrayValue: {values: [AnyValue]}}: the elements sit three levels down.
        value = { arrayValue: { values: decodeRepeatedField1({ reader: list, what: 'ArrayValue.values', decode: (element) => decodeAnyValue(element, depth + 3) }) } };
        break;
      }
      case 6: {
        const list = r.messageField(tag, 'AnyValue.kvlist_value');
        if (depth + 2 > MAX_JSON_DEPTH) throw tooDeep(tag.offset);
        value = { kvlistValue: { values: decodeRepeatedField1({ reader: list, what: 'KeyValueList.values', decode: (element) => decodeKeyValue(element, depth + 3) }) } };
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

/** A KeyValue that becomes an object at JSON depth `depth`; its value is one level down. */
function decodeKeyValue(r: ProtobufWireReader, depth: number): JsonKeyValue {
  let key = '';
  let value: JsonAnyValue = {};
  while (!r.atEnd()) {
    const tag = r.readTag();
    if (tag.field === 1) key = r.stringField(tag, 'KeyValue.key');
    else if (tag.field === 2) value = decodeAnyValue(r.messageField(tag, 'KeyValue.value'), depth + 1);
    else r.skip(tag);
  }
  return { key, value };
}


// ---------------------------------------------------------------------------------------------
// Messages of plain fields: one table per message, one decoder for all of them.

type FieldKind = 'string' | 'hex' | 'int32' | 'uint32' | 'fixed32' | 'fixed64' | 'attribute' | 'message';

interface FieldSpec {
  /** The proto field name, for error messages (`Span.dropped_attributes_count`). */
  proto: string;
  /** The OTLP JSON key; two wire fields may fill the same key (a deprecated alias). */
  json: string;
  kind: FieldKind;
  /** For `message` fields: the message's table (a function, so tables can refer to later ones). */
  message?: () => MessageSpec;
  repeated?: boolean;
  /** Written only when not the default (`''`, `0`, an empty list). */
  optional?: boolean;
  /** A message field seen twice merges (its later set fields win) instead of being replaced. */
  merge?: boolean;
}

interface MessageSpec {
  /** The proto message name, for error messages. */
  name: string;
  fields: ReadonlyMap<number, FieldSpec>;
  /** JSON keys in output order (the order of the fields' numbers). */
  keys: readonly string[];
  /** A field of each key, for its default. */
  byKey: ReadonlyMap<string, FieldSpec>;
}

function messageSpec(name: string, fields: Record<number, FieldSpec>): MessageSpec {
  const numbered = new Map(Object.entries(fields).map(([number, field]) => [Number(number), field]));
  const byKey = new Map<string, FieldSpec>();
  for (const field of [...numbered.entries()].sort((a, b) => a[0] - b[0]).map(([, field]) => field)) if (!byKey.has(field.json)) byKey.set(field.json, field);
  return { name, fields: numbered, keys: [...byKey.keys()], byKey };
}

const attributes = (): FieldSpec => ({ proto: 'attributes', json: 'attributes', kind: 'attribute', repeated: true });
const droppedAttributes = (): FieldSpec => ({ proto: 'dropped_attributes_count', json: 'droppedAttributesCount', kind: 'uint32', optional: true });
const EMPTY = new Uint8Array(0);

function defaultOf(field: FieldSpec): unknown {
  if (field.repeated) return [];
  switch (field.kind) {
    case 'string':
    case 'hex':
      return '';
    case 'fixed64':
      return '0';
    case 'message':
      return decodeMessage({ reader: new ProtobufWireReader({ buf: EMPTY, pos: 0, end: 0 }), spec: field.message!(), depth: 0 });
    default:
      return 0;
  }
}

function isDefault(value: unknown): boolean {
  return value === '' || value === 0 || (Array.isArray(value) && value.length === 0);
}

/** One field's value; `depth` is the JSON depth of the message holding it. */
function readField({ reader, tag, field, what, depth }: { reader: ProtobufWireReader; tag: Tag; field: FieldSpec; what: string; depth: number }): unknown {
  // A repeated field's elements sit inside its array: two levels down, else one.
  const below = depth + (field.repeated ? 2 : 1);
  switch (field.kind) {
    case 'string':
      return reader.stringField(tag, what);
    case 'hex':
      return reader.hexField(tag, what);
    case 'int32':
      return reader.int32Field(tag, what);
    case 'uint32':
      return reader.uint32Field(tag, what);
    case 'fixed32':
      return reader.fixed32Field(tag, what);
    case 'fixed64':
      return reader.fixed64Field(tag, what);
    case 'attribute':
      return decodeKeyValue(reader.messageField(tag, what), below);
    case 'message':
      return decodeMessage({ reader: reader.messageField(tag, what), spec: field.message!(), depth: below });
  }
}

/** Later set (non-default) fields win: how protobuf merges a message of scalars seen twice. */
function mergeSet(previous: JsonObject, next: JsonObject): JsonObject {
  const merged: JsonObject = { ...previous };
  for (const [key, value] of Object.entries(next)) if (!isDefault(value)) merged[key] = value;
  return merged;
}

/**
 * Decodes a message by its table: defaults filled in, unknown fields skipped, optional defaults
 * left out. `depth`: the JSON depth of the object it becomes (the request's own object is 1).
 */
function decodeMessage({ reader, spec, depth }: { reader: ProtobufWireReader; spec: MessageSpec; depth: number }): JsonObject {
  const values = new Map<string, unknown>();
  while (!reader.atEnd()) {
    const tag = reader.readTag();
    const field = spec.fields.get(tag.field);
    if (!field) {
      reader.skip(tag);
      continue;
    }
    const value = readField({ reader, tag, field, what: `${spec.name}.${field.proto}`, depth });
    if (field.repeated) {
      const list = values.get(field.json) as unknown[] | undefined;
      if (list) list.push(value);
      else values.set(field.json, [value]);
    } else if (field.merge && values.has(field.json)) {
      values.set(field.json, mergeSet(values.get(field.json) as JsonObject, value as JsonObject));
    } else {
      values.set(field.json, value);
    }
  }
  const out: JsonObject = {};
  for (const key of spec.keys) {
    const field = spec.byKey.get(key)!;
    const value = values.has(key) ? values.get(key) : defaultOf(field);
    if (!(field.optional && isDefault(value))) out[key] = value;
  }
  return out;
}

// resource/v1 and common/v1

const RESOURCE = messageSpec('Resource', { 1: attributes(), 2: droppedAttributes() });

/** InstrumentationScope, and the deprecated InstrumentationLibrary (same fields 1 and 2). */
const SCOPE = messageSpec('InstrumentationScope', {
  1: { proto: 'name', json: 'name', kind: 'string' },
  2: { proto: 'version', json: 'version', kind: 'string' },
  3: { ...attributes(), optional: true },
  4: droppedAttributes(),
});

// trace/v1

const EVENT = messageSpec('Span.Event', {
  1: { proto: 'time_unix_nano', json: 'timeUnixNano', kind: 'fixed64' },
  2: { proto: 'name', json: 'name', kind: 'string' },
  3: attributes(),
  4: droppedAttributes(),
});

const LINK = messageSpec('Span.Link', {
  1: { proto: 'trace_id', json: 'traceId', kind: 'hex' },
  2: { proto: 'span_id', json: 'spanId', kind: 'hex' },
  3: { proto: 'trace_state', json: 'traceState', kind: 'string', optional: true },
  4: attributes(),
  5: droppedAttributes(),
  6: { proto: 'flags', json: 'flags', kind: 'fixed32', optional: true },
});

/** Field 1 is the long-deprecated `deprecated_code`: skipped like any unknown field. */
const STATUS = messageSpec('Status', {
  2: { proto: 'message', json: 'message', kind: 'string' },
  3: { proto: 'code', json: 'code', kind: 'int32' },
});

const SPAN = messageSpec('Span', {
  1: { proto: 'trace_id', json: 'traceId', kind: 'hex' },
  2: { proto: 'span_id', json: 'spanId', kind: 'hex' },
  3: { proto: 'trace_state', json: 'traceState', kind: 'string', optional: true },
  4: { proto: 'parent_span_id', json: 'parentSpanId', kind: 'hex', optional: true },
  5: { proto: 'name', json: 'name', kind: 'string' },
  6: { proto: 'kind', json: 'kind', kind: 'int32' },
  7: { proto: 'start_time_unix_nano', json: 'startTimeUnixNano', kind: 'fixed64' },
  8: { proto: 'end_time_unix_nano', json: 'endTimeUnixNano', kind: 'fixed64' },
  9: attributes(),
  10: droppedAttributes(),
  11: { proto: 'events', json: 'events', kind: 'message', message: () => EVENT, repeated: true },
  12: { proto: 'dropped_events_count', json: 'droppedEventsCount', kind: 'uint32', optional: true },
  13: { proto: 'links', json: 'links', kind: 'message', message: () => LINK, repeated: true },
  14: { proto: 'dropped_links_count', json: 'droppedLinksCount', kind: 'uint32', optional: true },
  // A message field repeated on the wire merges; Status only has scalars, so the later
  // occurrence's set fields win.
  15: { proto: 'status', json: 'status', kind: 'message', message: () => STATUS, merge: true },
  16: { proto: 'flags', json: 'flags', kind: 'fixed32', optional: true },
});

/** ScopeSpans, and the deprecated InstrumentationLibrarySpans (identical field layout). */
const scopeSpans = (name: string) =>
  messageSpec(name, {
    1: { proto: 'scope', json: 'scope', kind: 'message', message: () => SCOPE },
    2: { proto: 'spans', json: 'spans', kind: 'message', message: () => SPAN, repeated: true },
    3: { proto: 'schema_url', json: 'schemaUrl', kind: 'string', optional: true },
  });
const SCOPE_SPANS = scopeSpans('ScopeSpans');
const INSTRUMENTATION_LIBRARY_SPANS = scopeSpans('InstrumentationLibrarySpans');

const RESOURCE_SPANS = messageSpec('ResourceSpans', {
  1: { proto: 'resource', json: 'resource', kind: 'message', message: () => RESOURCE },
  2: { proto: 'scope_spans', json: 'scopeSpans', kind: 'message', message: () => SCOPE_SPANS, repeated: true },
  3: { proto: 'schema_url', json: 'schemaUrl', kind: 'string', optional: true },
  // Deprecated `instrumentation_library_spans` (pre-0.15 OTLP): same layout as ScopeSpans.
  1000: { proto: 'instrumentation_library_spans', json: 'scopeSpans', kind: 'message', message: () => INSTRUMENTATION_LIBRARY_SPANS, repeated: true },
});

/**
 * Decodes an OTLP/HTTP protobuf trace export body (`ExportTraceServiceRequest`) into the
 * equivalent OTLP JSON object (`{ resourceSpans: [...] }`). An empty body is a valid, empty
 * request. Throws `LoopscopeError('INVALID_ARGUMENT')` naming the problem and its byte offset when
 * the body is truncated or not valid protobuf.
 */
export function decodeOtlpProtobuf(bytes: Uint8Array): unknown {
  const reader = new ProtobufWireReader({ buf: bytes, pos: 0, end: bytes.length });
  // {resourceSpans: [ResourceSpans]}: each ResourceSpans is an object at depth 3.
  return { resourceSpans: decodeRepeatedField1({ reader, what: 'ExportTraceServiceRequest.resource_spans', decode: (element) => decodeMessage({ reader: element, spec: RESOURCE_SPANS, depth: 3 }) }) };
}
