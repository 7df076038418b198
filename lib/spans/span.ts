/**
 * The normalized span record every reader produces and every consumer reads.
 *
 * Readers (OTLP JSON, JSONL, Genkit TraceData, …) convert once, at the boundary, into
 * this shape; nothing downstream looks at a wire format again.
 */

/** An attribute value after decoding OTLP's AnyValue wrapper. */
export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

/** Attribute maps are null-prototype objects: keys come from untrusted input. */
export type Attributes = Record<string, AttributeValue>;

export interface SpanEvent {
  name: string;
  /** Nanoseconds since the epoch, as a decimal string (OTLP's fixed64). */
  timeUnixNano: string;
  attributes: Attributes;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

/** OTLP status codes: 0 unset, 1 ok, 2 error. */
export type SpanStatusCode = 0 | 1 | 2;

export interface Span {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  /** Absent for a root span. A parent that never arrived makes this span a root of its tree. */
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Nanoseconds since the epoch, decimal string. */
  startTimeUnixNano: string;
  /** Absent while the span is still open. */
  endTimeUnixNano?: string;
  attributes: Attributes;
  events: SpanEvent[];
  links: SpanLink[];
  status: { code: SpanStatusCode; message?: string };
  /** Resource attributes (service.name, …) of the exporter that sent the span. */
  resource: Attributes;
  /** Instrumentation scope, e.g. `genkit-tracer`. */
  scope: { name: string; version?: string };
}

/** `${traceId}:${spanId}`: a span's key when several traces share a set (also a graph node id). */
export function spanKey(span: { traceId: string; spanId: string }): string {
  return `${span.traceId}:${span.spanId}`;
}

/**
 * Creates an empty attribute map that cannot be polluted through `__proto__` keys: its
 * prototype is null. Made with `setPrototypeOf` on a literal, not `Object.create(null)`, which V8
 * makes a dictionary: a build's ten thousand maps stay fast objects, which decode ~20% faster
 * (bench/graph-build.bench.ts) and take less memory.
 */
/**
 * Orders span keys and ids (`spanKey`): by UTF-16 code unit. For lowercase hex with the colon
 * always at the same place this is the order `localeCompare` gave, without its cost — on the
 * 10,000-span benchmark, ties in start time sorted by `localeCompare` took ~2% of a build.
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function createAttributes(): Attributes {
  return Object.setPrototypeOf({}, null) as Attributes;
}

const NANOS_TEXT = /^(0|[1-9]\d{0,19})$/;
/** 2^64−1, the largest OTLP `fixed64`. */
const MAX_FIXED64_TEXT = '18446744073709551615';

/**
 * Whether a value is a time as `Span` holds it: nanoseconds as a decimal string without
 * leading zeros that fits OTLP's fixed64 (at most 2^64−1). Every decoder and the store check
 * times with this one rule.
 */
export function isUnixNanoText(value: unknown): value is string {
  // Equal-length digit strings compare like the numbers they spell.
  return typeof value === 'string' && NANOS_TEXT.test(value) && (value.length < MAX_FIXED64_TEXT.length || value <= MAX_FIXED64_TEXT);
}

/** Milliseconds since the epoch of a nanosecond decimal string (precision below 1 µs is dropped). */
export function nanosToMillis(nanos: string): number {
  // Number() loses precision past 2^53 ns (≈104 days); slicing keeps microseconds exact.
  if (nanos.length <= 6) return Number(nanos) / 1e6;
  return Number(nanos.slice(0, -3)) / 1e3;
}

/** Nanosecond decimal string of a millisecond timestamp (fractions kept to the nanosecond). */
export function millisToNanos(millis: number): string {
  const whole = Math.floor(millis);
  const fraction = Math.round((millis - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(fraction)).toString();
}

/** Compares two nanosecond decimal strings without converting to floating point. */
export function compareNanos(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Duration in milliseconds, or undefined for an open span. */
export function spanDurationMillis(span: Span): number | undefined {
  if (span.endTimeUnixNano === undefined) return undefined;
  return nanosToMillis(span.endTimeUnixNano) - nanosToMillis(span.startTimeUnixNano);
}
