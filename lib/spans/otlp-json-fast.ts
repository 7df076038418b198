import { createAttributes, isUnixNanoText, type AttributeValue, type Attributes, type Span, type SpanStatusCode } from './span';

/**
 * The fast path of OTLP JSON decoding, for bodies already in canonical form (what OTel JS
 * exporters and Loopscope itself write: lowercase hex ids, decimal-string times, numeric
 * enums, the usual AnyValue kinds). Plain loops, no schema library: a 10,000-span file
 * decodes in a fraction of the time. Anything it does not recognise makes it return
 * `undefined`, and the caller falls back to the tolerant zod path, which also writes the
 * error messages — so this path never has to explain a failure.
 */
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZEROS = /^0+$/;

class NotCanonical extends Error {}
const bail = (): never => {
  throw new NotCanonical();
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function anyValue(value: unknown): AttributeValue {
  if (!isRecord(value)) return bail();
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
    return Array.isArray(values) ? values.map(anyValue) : bail();
  }
  if (isRecord(value.kvlistValue)) return attributes(value.kvlistValue.values);
  return bail();
}

function attributes(list: unknown): Attributes {
  const result = createAttributes();
  if (list === undefined) return result;
  if (!Array.isArray(list)) return bail();
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.key !== 'string') return bail();
    result[entry.key] = entry.value === undefined ? null : anyValue(entry.value);
  }
  return result;
}

function nanos(value: unknown): string {
  // Above 2^64−1 too: the tolerant path rejects it with its message.
  return isUnixNanoText(value) ? value : bail();
}

function id(value: unknown, pattern: RegExp): string {
  return typeof value === 'string' && pattern.test(value) && !ZEROS.test(value) ? value : bail();
}

function span({ wire, resource, scope }: { wire: unknown; resource: Attributes; scope: Span['scope'] }): Span {
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
    traceId: id(wire.traceId, TRACE_ID),
    spanId: id(wire.spanId, SPAN_ID),
    name: wire.name,
    kind,
    startTimeUnixNano: nanos(wire.startTimeUnixNano),
    attributes: attributes(wire.attributes),
    events: events.map((event) =>
      isRecord(event) && typeof event.name === 'string'
        ? { name: event.name, timeUnixNano: nanos(event.timeUnixNano), attributes: attributes(event.attributes) }
        : bail(),
    ),
    links: links.map((link) =>
      isRecord(link) ? { traceId: id(link.traceId, TRACE_ID), spanId: id(link.spanId, SPAN_ID), attributes: attributes(link.attributes) } : bail(),
    ),
    status: { code: code as SpanStatusCode },
    // Shared and frozen: thousands of spans of one batch carry the same resource and scope.
    resource,
    scope,
  };
  if (typeof status.message === 'string') result.status.message = status.message;
  const parent = wire.parentSpanId;
  if (parent !== undefined && parent !== '' && !(typeof parent === 'string' && ZEROS.test(parent))) result.parentSpanId = id(parent, SPAN_ID);
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
        for (const wire of scopeSpans.spans) spans.push(span({ wire, resource, scope }));
      }
    }
    return spans;
  } catch (error) {
    if (error instanceof NotCanonical) return undefined;
    throw error;
  }
}
