import { createAttributes, isUnixNanoText, type AttributeValue, type Attributes, type Span, type SpanEvent, type SpanLink, type SpanStatusCode } from './span';

/**
 * The fast path of OTLP JSON decoding, for bodies already in canonical form (what OTel JS
 * exporters and Loopscope itself write: lowercase hex ids, decimal-string times, numeric
 * enums, the usual AnyValue kinds). Plain loops, no schema library: a 10,000-span file
 * decodes in a fraction of the time. Anything it does not recognise makes it return
 * `undefined`, and the caller falls back to the tolerant zod path, which also writes the
 * error messages — so this path never has to explain a failure.
 *
 * What it returns is bounded in depth by itself: it keeps only attribute values, and one nested
 * past `MAX_VALUE_NESTING` sends the body the tolerant way. A body it decodes therefore needs no
 * walk for `MAX_JSON_DEPTH` (parse-json-limited.ts) — of a 23 MB trace that walk costs ~6 ms —
 * and anything it leaves to the tolerant path must have had that walk first.
 */
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
/** The invalid all-zero ids, of the lengths the patterns allow. */
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
const ALL_ZEROS = /^0+$/;

/**
 * The events and links of the spans that have none (most), shared: one empty list less per
 * span to allocate and to copy in each young-generation collection of a build. Frozen, so a
 * reader that tried to add to one would fail at once.
 */
const NO_EVENTS: readonly SpanEvent[] = Object.freeze([]);
const NO_LINKS: readonly SpanLink[] = Object.freeze([]);

class NotCanonical extends Error {}
const bail = (): never => {
  throw new NotCanonical();
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * AnyValues nested in one another at most this deep (an array of kvlists of …): each level is 3
 * or 4 levels of JSON, so what this path keeps stays far within `MAX_JSON_DEPTH` below a span.
 */
const MAX_VALUE_NESTING = 24;

function anyValue(value: unknown, nesting: number): AttributeValue {
  if (!isRecord(value) || nesting > MAX_VALUE_NESTING) return bail();
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (value.intValue !== undefined) {
    const raw = value.intValue;
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
    if (typeof raw === 'string' && /^-?\d{1,15}$/.test(raw)) return Number(raw);
    return bail();
  }
  if (typeof value.doubleValue === 'number') return value.doubleValue;
  if (isRecord(value.arrayValue)) {
    const values = value.arrayValue.values ?? [];
    return Array.isArray(values) ? values.map((item) => anyValue(item, nesting + 1)) : bail();
  }
  if (isRecord(value.kvlistValue)) return attributes(value.kvlistValue.values, nesting + 1);
  return bail();
}

function attributes(list: unknown, nesting = 0): Attributes {
  const result = createAttributes();
  if (list === undefined) return result;
  if (!Array.isArray(list)) return bail();
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.key !== 'string') return bail();
    result[entry.key] = entry.value === undefined ? null : anyValue(entry.value, nesting);
  }
  return result;
}

function nanos(value: unknown): string {
  // Above 2^64−1 too: the tolerant path rejects it with its message.
  return isUnixNanoText(value) ? value : bail();
}

function spanId(value: unknown): string {
  return typeof value === 'string' && SPAN_ID.test(value) && value !== ZERO_SPAN_ID ? value : bail();
}

function traceId(value: unknown): string {
  return typeof value === 'string' && TRACE_ID.test(value) && value !== ZERO_TRACE_ID ? value : bail();
}

/**
 * `traceId`, checked once for a run of spans of one trace (how exporters batch them): a string
 * equal to the last one checked is as valid.
 */
function traceIdChecker(): (value: unknown) => string {
  let last = '';
  return (value) => {
    if (value === last) return last;
    last = traceId(value);
    return last;
  };
}

function span({ wire, resource, scope, checkTraceId }: { wire: unknown; resource: Attributes; scope: Span['scope']; checkTraceId: (value: unknown) => string }): Span {
  if (!isRecord(wire) || typeof wire.name !== 'string') return bail();
  const kind = wire.kind === undefined ? 0 : wire.kind;
  if (typeof kind !== 'number' || !Number.isInteger(kind) || kind < 0 || kind > 5) return bail();
  const status = wire.status === undefined ? {} : wire.status;
  if (!isRecord(status)) return bail();
  const code = status.code === undefined ? 0 : status.code;
  if (code !== 0 && code !== 1 && code !== 2) return bail();
  if (status.message !== undefined && typeof status.message !== 'string') return bail();
  const events = wire.events === undefined ? [] : wire.events;
  const links = wire.links === undefined ? [] : wire.links;
  if (!Array.isArray(events) || !Array.isArray(links)) return bail();
  const result: Span = {
    traceId: checkTraceId(wire.traceId),
    spanId: spanId(wire.spanId),
    name: wire.name,
    kind,
    startTimeUnixNano: nanos(wire.startTimeUnixNano),
    attributes: attributes(wire.attributes),
    events: events.length === 0 ? (NO_EVENTS as SpanEvent[]) : events.map((event) =>
      isRecord(event) && typeof event.name === 'string'
        ? { name: event.name, timeUnixNano: nanos(event.timeUnixNano), attributes: attributes(event.attributes) }
        : bail(),
    ),
    links: links.length === 0 ? (NO_LINKS as SpanLink[]) : links.map((link) =>
      isRecord(link) ? { traceId: traceId(link.traceId), spanId: spanId(link.spanId), attributes: attributes(link.attributes) } : bail(),
    ),
    status: typeof status.message === 'string' ? { code: code as SpanStatusCode, message: status.message } : { code: code as SpanStatusCode },
    // Shared and frozen: thousands of spans of one batch carry the same resource and scope.
    resource,
    scope,
  };
  const parent = wire.parentSpanId;
  // No parent: absent, empty, or all zeros (of any length, as the tolerant path reads it).
  if (parent !== undefined && parent !== '' && !(typeof parent === 'string' && parent.charCodeAt(0) === 0x30 && ALL_ZEROS.test(parent))) result.parentSpanId = spanId(parent);
  const end = wire.endTimeUnixNano === undefined ? '0' : nanos(wire.endTimeUnixNano);
  // An unended span is exported with end time 0 (OpenTelemetry JS's `[0, 0]` hrtime).
  if (end !== '0') result.endTimeUnixNano = end;
  return result;
}

/** Spans of a canonical OTLP JSON body, or undefined when the body needs the tolerant path. */
export function decodeCanonicalOtlpJson(body: unknown): Span[] | undefined {
  try {
    if (!isRecord(body) || !Array.isArray(body.resourceSpans)) return undefined;
    const spans: Span[] = [];
    const checkTraceId = traceIdChecker();
    for (const resourceSpans of body.resourceSpans) {
      if (!isRecord(resourceSpans) || !Array.isArray(resourceSpans.scopeSpans)) return undefined;
      const resourceValue = resourceSpans.resource === undefined ? {} : resourceSpans.resource;
      if (!isRecord(resourceValue)) return undefined;
      const resource = Object.freeze(attributes(resourceValue.attributes));
      for (const scopeSpans of resourceSpans.scopeSpans) {
        if (!isRecord(scopeSpans) || !Array.isArray(scopeSpans.spans)) return undefined;
        const scopeValue = scopeSpans.scope === undefined ? {} : scopeSpans.scope;
        if (!isRecord(scopeValue)) return undefined;
        const name = scopeValue.name === undefined ? '' : scopeValue.name;
        if (typeof name !== 'string' || (scopeValue.version !== undefined && typeof scopeValue.version !== 'string')) return undefined;
        const scope: Span['scope'] = typeof scopeValue.version === 'string' ? { name, version: scopeValue.version } : { name };
        Object.freeze(scope);
        for (const wire of scopeSpans.spans) spans.push(span({ wire, resource, scope, checkTraceId }));
      }
    }
    return spans;
  } catch (error) {
    if (error instanceof NotCanonical) return undefined;
    throw error;
  }
}
