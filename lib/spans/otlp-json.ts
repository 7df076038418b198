/**
 * OTLP/HTTP JSON `ExportTraceServiceRequest` ⇄ normalized `Span[]`.
 *
 * The schema is deliberately tolerant of what real exporters send (the OTLP JSON spec says
 * hex ids and string times; some exporters send base64 ids, numeric or protobufjs `Long`
 * times, enum names, the pre-1.0 `instrumentationLibrarySpans` field). Its *output* type is
 * the canonical form, which is also what `encodeOtlpJson` writes, so one schema describes both.
 */
import { z } from 'zod';
import { LoopscopeError } from '../errors';
import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import { createAttributes, isUnixNanoText, type AttributeValue, type Attributes, type Span, type SpanStatusCode } from './span';

/** Lowercase hex of a trace/span id given as hex or base64 (standard or URL-safe), else undefined. */
export function normalizeId(value: string, bytes: 16 | 8): string | undefined {
  if (value.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(value)) return value.toLowerCase();
  // Base64 of 16 bytes is 22 characters (24 padded); of 8 bytes, 11 (12 padded).
  const unpadded = Math.ceil((bytes * 4) / 3);
  const trimmed = value.replace(/=+$/, '');
  if (trimmed.length !== unpadded || !/^[A-Za-z0-9+/_-]+$/.test(trimmed)) return undefined;
  // atob, not Buffer: this module also runs in the browser (client components decode OTLP).
  const binary = atob(trimmed.replace(/-/g, '+').replace(/_/g, '/'));
  if (binary.length !== bytes) return undefined;
  return Array.from(binary, (character) => character.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

function preview(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function idSchema(bytes: 16 | 8) {
  return z.string().transform((value, context) => {
    const id = normalizeId(value, bytes);
    if (id === undefined) {
      context.addIssue({ code: 'custom', message: `expected ${bytes * 2} hex characters (or base64 of ${bytes} bytes), got ${preview(value)}` });
      return z.NEVER;
    }
    if (/^0+$/.test(id)) {
      context.addIssue({ code: 'custom', message: 'an id of all zeros is invalid' });
      return z.NEVER;
    }
    return id;
  });
}

/** A 16-byte trace id as hex or base64 → lowercase hex. */
export const TraceIdSchema = idSchema(16);
/** An 8-byte span id as hex or base64 → lowercase hex. */
export const SpanIdSchema = idSchema(8);
/** A parent span id; "" (proto3's default) and all zeros mean "no parent". */
export const ParentSpanIdSchema = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '' || /^0+$/.test(value)) return undefined;
    const id = normalizeId(value, 8);
    if (id === undefined) {
      context.addIssue({ code: 'custom', message: `expected 16 hex characters (or base64 of 8 bytes), got ${preview(value)}` });
      return z.NEVER;
    }
    return /^0+$/.test(id) ? undefined : id;
  });

function unixNanoOf(value: unknown): string | undefined {
  let nanos: bigint | undefined;
  if (value === undefined) nanos = 0n; // proto3 JSON omits zero values
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) nanos = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) nanos = BigInt(value);
  else if (typeof value === 'object' && value !== null && 'low' in value && 'high' in value) {
    // protobufjs `Long` as serialized by exporters built with `longs: Object`.
    const { low, high } = value as { low: unknown; high: unknown };
    if (typeof low === 'number' && typeof high === 'number' && Number.isInteger(low) && Number.isInteger(high)) {
      nanos = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
    }
  }
  const text = nanos?.toString();
  return isUnixNanoText(text) ? text : undefined;
}

/** Nanoseconds since the epoch (decimal string, number or `{low, high}`) → decimal string without leading zeros. */
export const UnixNanoSchema = z.unknown().transform((value, context) => {
  const nanos = unixNanoOf(value);
  if (nanos === undefined) {
    context.addIssue({ code: 'custom', message: 'expected a non-negative integer time in nanoseconds (decimal string, number or {low, high})' });
    return z.NEVER;
  }
  return nanos;
});

function enumSchema({ names, prefix, what }: { names: readonly string[]; prefix: string; what: string }) {
  return z.union([z.number(), z.string()]).optional().transform((value, context) => {
    if (value === undefined) return 0;
    const number = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : names.indexOf(value.replace(prefix, ''));
    if (Number.isInteger(number) && number >= 0 && number < names.length) return number;
    context.addIssue({ code: 'custom', message: `expected ${what} 0–${names.length - 1} or a name such as ${prefix}${names[1]}, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });
}

const SpanKindSchema = enumSchema({ names: ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'], prefix: 'SPAN_KIND_', what: 'a span kind' });
const StatusCodeSchema = enumSchema({ names: ['UNSET', 'OK', 'ERROR'], prefix: 'STATUS_CODE_', what: 'a status code' });

const IntValueSchema = z.union([z.string().regex(/^-?\d{1,19}$/, 'expected an integer'), z.number().int()]).transform((value) => BigInt(value).toString());
const DoubleValueSchema = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity']), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/).transform(Number)]);

/** OTLP `AnyValue`: exactly one of its fields is set; none set means null. */
export const AnyValueSchema = z.object({
  stringValue: z.string().optional(),
  boolValue: z.boolean().optional(),
  intValue: IntValueSchema.optional(),
  doubleValue: DoubleValueSchema.optional(),
  bytesValue: z.string().optional(),
  get arrayValue() {
    return z.object({ values: z.array(AnyValueSchema).optional() }).optional();
  },
  get kvlistValue() {
    return z.object({ values: z.array(KeyValueSchema).optional() }).optional();
  },
});
export const KeyValueSchema = z.object({
  key: z.string(),
  get value() {
    return AnyValueSchema.optional();
  },
});
const AttributeListSchema = z.array(KeyValueSchema).optional();

const OtlpSpanSchema = z.object({
  traceId: TraceIdSchema,
  spanId: SpanIdSchema,
  parentSpanId: ParentSpanIdSchema,
  name: z.string().default(''),
  kind: SpanKindSchema,
  startTimeUnixNano: UnixNanoSchema,
  endTimeUnixNano: UnixNanoSchema,
  attributes: AttributeListSchema,
  events: z.array(z.object({ timeUnixNano: UnixNanoSchema, name: z.string().default(''), attributes: AttributeListSchema })).optional(),
  links: z.array(z.object({ traceId: TraceIdSchema, spanId: SpanIdSchema, attributes: AttributeListSchema })).optional(),
  status: z.object({ code: StatusCodeSchema, message: z.string().optional() }).optional(),
});
const ScopeSchema = z.object({ name: z.string().default(''), version: z.string().optional() });
const ScopeSpansSchema = z.object({ scope: ScopeSchema.optional(), spans: z.array(OtlpSpanSchema).default([]) });
const LegacyScopeSpansSchema = z.object({ instrumentationLibrary: ScopeSchema.optional(), spans: z.array(OtlpSpanSchema).default([]) });

/** OTLP/HTTP JSON `ExportTraceServiceRequest` (tolerant input, canonical output). */
export const OtlpExportRequestSchema = z.object({
  resourceSpans: z.array(
    z
      .object({
        resource: z.object({ attributes: AttributeListSchema }).optional(),
        scopeSpans: z.array(ScopeSpansSchema).optional(),
        // Exporters before OTLP 0.15 (and some still shipping) use the old name.
        instrumentationLibrarySpans: z.array(LegacyScopeSpansSchema).optional(),
      })
      .transform(({ resource, scopeSpans, instrumentationLibrarySpans }) => ({
        resource,
        scopeSpans: [
          ...(scopeSpans ?? []),
          ...(instrumentationLibrarySpans ?? []).map(({ instrumentationLibrary, spans }) => ({ scope: instrumentationLibrary, spans })),
        ],
      })),
  ),
});

export type OtlpExportRequest = z.output<typeof OtlpExportRequestSchema>;
export type OtlpAnyValue = z.output<typeof AnyValueSchema>;
export type OtlpKeyValue = z.output<typeof KeyValueSchema>;
type OtlpSpan = z.output<typeof OtlpSpanSchema>;

/** `resourceSpans[0].scopeSpans[1]` from a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(key))) text += `${text ? '.' : ''}${String(key)}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/** One sentence naming the first problem of a failed parse and where it is. */
export function describeFirstIssue(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  const path = formatIssuePath(issue.path);
  const detail = issue.message.replace(/^Invalid input: /, '').replace(/\.$/, '');
  if (path && issue.code === 'invalid_type' && detail.endsWith(', received undefined')) {
    return `Invalid ${what}: ${path} is missing (${detail.replace(/, received undefined$/, '')}).`;
  }
  return `Invalid ${what}${path ? ` at ${path}` : ''}: ${detail}.`;
}

/** Decodes an AnyValue; bytes stay base64 text since `AttributeValue` has no bytes kind. */
export function decodeAnyValue(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    // Beyond 2^53 a number would silently change the value; keep the exact digits instead.
    const number = Number(value.intValue);
    return Number.isSafeInteger(number) ? number : value.intValue;
  }
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.bytesValue !== undefined) return value.bytesValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeAnyValue);
  if (value.kvlistValue !== undefined) return decodeAttributes(value.kvlistValue.values);
  return null;
}

/** KeyValue list → null-prototype attribute map (a repeated key: the last one wins). */
export function decodeAttributes(list: readonly OtlpKeyValue[] | undefined): Attributes {
  const attributes = createAttributes();
  for (const { key, value } of list ?? []) attributes[key] = decodeAnyValue(value);
  return attributes;
}

function toSpan({ wire, resource, scope }: { wire: OtlpSpan; resource: Attributes; scope: Span['scope'] }): Span {
  const span: Span = {
    traceId: wire.traceId,
    spanId: wire.spanId,
    name: wire.name,
    kind: wire.kind,
    startTimeUnixNano: wire.startTimeUnixNano,
    attributes: decodeAttributes(wire.attributes),
    events: (wire.events ?? []).map((event) => ({ name: event.name, timeUnixNano: event.timeUnixNano, attributes: decodeAttributes(event.attributes) })),
    links: (wire.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: decodeAttributes(link.attributes) })),
    status: { code: (wire.status?.code ?? 0) as SpanStatusCode },
    // Each span gets its own copy so no consumer can change another span's resource.
    resource: Object.assign(createAttributes(), resource),
    scope: { ...scope },
  };
  if (wire.status?.message !== undefined) span.status.message = wire.status.message;
  if (wire.parentSpanId !== undefined) span.parentSpanId = wire.parentSpanId;
  // An unended span is exported with end time 0 (OpenTelemetry JS's `[0, 0]` hrtime).
  if (wire.endTimeUnixNano !== '0') span.endTimeUnixNano = wire.endTimeUnixNano;
  return span;
}

/** Spans of an already validated export request. */
export function spansOfExportRequest(request: OtlpExportRequest): Span[] {
  const spans: Span[] = [];
  for (const resourceSpans of request.resourceSpans) {
    const resource = decodeAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans) {
      const scope: Span['scope'] = { name: scopeSpans.scope?.name ?? '' };
      if (scopeSpans.scope?.version !== undefined) scope.version = scopeSpans.scope.version;
      for (const wire of scopeSpans.spans) spans.push(toSpan({ wire, resource, scope }));
    }
  }
  return spans;
}

/**
 * Validates an OTLP/HTTP JSON body and normalizes it into spans.
 * @throws LoopscopeError INVALID_ARGUMENT naming the first problem and its path.
 */
export function decodeOtlpJson(body: unknown): Span[] {
  const fast = decodeCanonicalOtlpJson(body);
  if (fast) return fast;
  const parsed = OtlpExportRequestSchema.safeParse(body);
  if (!parsed.success) throw new LoopscopeError('INVALID_ARGUMENT', describeFirstIssue(parsed.error, 'OTLP JSON'), { cause: parsed.error });
  return spansOfExportRequest(parsed.data);
}

/** AttributeValue → AnyValue: safe integers as `intValue` strings, other numbers as `doubleValue`. */
export function encodeAnyValue(value: AttributeValue): OtlpAnyValue {
  if (value === null) return {};
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) return { intValue: String(value) };
    // JSON has no NaN/Infinity; proto3 JSON spells them as strings.
    return { doubleValue: Number.isFinite(value) ? value : (String(value) as 'NaN' | 'Infinity' | '-Infinity') };
  }
  if (Array.isArray(value)) return { arrayValue: { values: value.map(encodeAnyValue) } };
  return { kvlistValue: { values: encodeAttributes(value) } };
}

/** Attribute map → KeyValue list, in key order. */
export function encodeAttributes(attributes: Attributes): OtlpKeyValue[] {
  return Object.keys(attributes).map((key) => ({ key, value: encodeAnyValue(attributes[key]) }));
}

function toWireSpan(span: Span): OtlpSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano ?? '0',
    attributes: encodeAttributes(span.attributes),
    events: span.events.map((event) => ({ timeUnixNano: event.timeUnixNano, name: event.name, attributes: encodeAttributes(event.attributes) })),
    links: span.links.map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: encodeAttributes(link.attributes) })),
    status: span.status.message === undefined ? { code: span.status.code } : { code: span.status.code, message: span.status.message },
  };
}

/**
 * Spans → OTLP JSON export request (hex ids, nanosecond strings). Consecutive spans with the
 * same resource and scope share one group; grouping only consecutive runs keeps the span
 * order, so `decodeOtlpJson(encodeOtlpJson(spans))` equals `spans`.
 */
export function encodeOtlpJson(spans: readonly Span[]): OtlpExportRequest {
  const request: OtlpExportRequest = { resourceSpans: [] };
  let resourceKey: string | undefined;
  let scopeKey: string | undefined;
  for (const span of spans) {
    const nextResourceKey = JSON.stringify(Object.entries(span.resource));
    const nextScopeKey = JSON.stringify([span.scope.name, span.scope.version]);
    if (nextResourceKey !== resourceKey) {
      request.resourceSpans.push({ resource: { attributes: encodeAttributes(span.resource) }, scopeSpans: [] });
      resourceKey = nextResourceKey;
      scopeKey = undefined;
    }
    const scopeSpans = request.resourceSpans[request.resourceSpans.length - 1].scopeSpans;
    if (nextScopeKey !== scopeKey) {
      const scope = span.scope.version === undefined ? { name: span.scope.name } : { name: span.scope.name, version: span.scope.version };
      scopeSpans.push({ scope, spans: [] });
      scopeKey = nextScopeKey;
    }
    scopeSpans[scopeSpans.length - 1].spans.push(toWireSpan(span));
  }
  return request;
}
