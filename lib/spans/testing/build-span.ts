/**
 * Synthetic spans for tests: one builder instead of a near-identical helper per test file.
 * Fixtures from real genkit runs live in `__fixtures__/`; this is for edge cases.
 */
import { createAttributes, type AttributeValue, type Attributes, type Span } from '../span';

/** The fields of a span a test may set; attribute maps are plain objects here. */
export type SpanOverrides = Partial<Omit<Span, 'attributes' | 'resource'>> & {
  attributes?: Record<string, AttributeValue>;
  resource?: Record<string, AttributeValue>;
};

/** Default trace id of built spans. */
export const BUILT_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

/** The epoch that `spanTimes` counts milliseconds from (2023-11-14T22:13:20Z). */
export const BASE_MILLIS = 1_700_000_000_000;

/** A null-prototype `Attributes` map with the given entries, as the readers produce. */
export function attributesOf(entries: Record<string, AttributeValue> = {}): Attributes {
  return Object.assign(createAttributes(), entries);
}

/** A deterministic 16-hex-character span id derived from a name (FNV-1a, 64 bits). */
export function spanIdFrom(name: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const character of name) {
    hash ^= BigInt(character.codePointAt(0) ?? 0);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * Start and end nanos of a span that runs from `start` to `end` milliseconds after
 * `BASE_MILLIS`. `end` defaults to `start + 10`; `end: null` leaves the span open.
 */
export function spanTimes({ start = 0, end }: { start?: number; end?: number | null }): Pick<Span, 'startTimeUnixNano' | 'endTimeUnixNano'> {
  const nanos = (millis: number) => (BigInt(BASE_MILLIS + millis) * 1_000_000n).toString();
  // An explicit undefined end, so that `buildSpan` leaves the span open instead of using its default.
  if (end === null) return { startTimeUnixNano: nanos(start), endTimeUnixNano: undefined };
  return { startTimeUnixNano: nanos(start), endTimeUnixNano: nanos(end ?? start + 10) };
}

/**
 * A complete, ended `Span` with sensible defaults, overridden field by field.
 *
 * The span id defaults to one derived from the name. A field set to `undefined` keeps its
 * default, except the two optional ones: `parentSpanId` or `endTimeUnixNano` set to
 * `undefined` leave the key out, as the readers do for a root or an open span.
 */
export function buildSpan(overrides: SpanOverrides = {}): Span {
  const { attributes, resource, ...fields } = overrides;
  const name = fields.name ?? 'span';
  const span: Span = {
    traceId: BUILT_TRACE_ID,
    spanId: spanIdFrom(name),
    name,
    kind: 1,
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000010000000',
    events: [],
    links: [],
    status: { code: 0 },
    scope: { name: 'genkit-tracer' },
    ...definedFields(fields),
    attributes: attributesOf(attributes),
    resource: attributesOf(resource),
  };
  if ('parentSpanId' in fields && fields.parentSpanId === undefined) delete span.parentSpanId;
  if ('endTimeUnixNano' in fields && fields.endTimeUnixNano === undefined) delete span.endTimeUnixNano;
  return span;
}

/** The entries of `fields` whose value is not `undefined`. */
function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Attributes genkit puts on a `generate` util span; `output` becomes `genkit:output` JSON. */
export function generateAttributes(output?: unknown): Record<string, AttributeValue> {
  return {
    'genkit:type': 'util',
    'genkit:name': 'generate',
    ...(output === undefined ? {} : { 'genkit:output': JSON.stringify(output) }),
  };
}

/** Attributes genkit puts on a model action span. */
export function modelAttributes(name: string): Record<string, AttributeValue> {
  return { 'genkit:type': 'action', 'genkit:metadata:subtype': 'model', 'genkit:name': name };
}

/** Attributes genkit puts on a tool action span. */
export function toolAttributes(name: string): Record<string, AttributeValue> {
  return { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': name };
}

/** An `exception` span event, as OpenTelemetry records a thrown error (genkit's interrupts included). */
export function exceptionEvent({ type, message, timeUnixNano = '1700000000005000000' }: { type: string; message: string; timeUnixNano?: string }): Span['events'][number] {
  return { name: 'exception', timeUnixNano, attributes: attributesOf({ 'exception.type': type, 'exception.message': message }) };
}
