/**
 * Reader for Genkit Dev UI `TraceData` files (what `.genkit/traces/<traceId>` holds).
 *
 * The shape follows genkit 1.42's `TraceDataSchema` / `SpanDataSchema`
 * (`@genkit-ai/core/lib/tracing/types`) as written by its `TraceServerExporter`: times are
 * milliseconds (floats, from `hrTimeToMilliseconds`), `spanKind` is the OpenTelemetry API
 * enum name, events sit under `timeEvents.timeEvent[].annotation`, links are the SDK's
 * `{context: {traceId, spanId}, attributes}`.
 */
import { z } from 'zod';
import { LoopscopeError } from '../errors';
import { describeFirstIssue, ParentSpanIdSchema, SpanIdSchema, TraceIdSchema } from './otlp-json';
import { createAttributes, millisToNanos, type AttributeValue, type Attributes, type Span, type SpanStatusCode } from './span';

/** OpenTelemetry API `SpanKind` names → OTLP kind numbers (the API's enum is OTLP's minus one). */
const OTLP_KIND_BY_NAME: Record<string, number> = {
  INTERNAL: 1,
  SERVER: 2,
  CLIENT: 3,
  PRODUCER: 4,
  CONSUMER: 5,
};

const MillisSchema = z.number().nonnegative();
const PlainAttributesSchema = z.record(z.string(), z.unknown()).optional();

const SpanKindNameSchema = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return 0;
    const kind = OTLP_KIND_BY_NAME[value.replace(/^SPAN_KIND_/, '')];
    if (kind !== undefined) return kind;
    context.addIssue({ code: 'custom', message: `expected a span kind such as INTERNAL, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });

/** One span of a Genkit `TraceData` (unknown extra fields are ignored). */
export const GenkitSpanDataSchema = z.object({
  spanId: SpanIdSchema,
  traceId: TraceIdSchema,
  parentSpanId: ParentSpanIdSchema,
  startTime: MillisSchema,
  // genkit's realtime span processor exports a span when it starts, with endTime 0.
  endTime: MillisSchema.optional(),
  attributes: PlainAttributesSchema,
  displayName: z.string().default(''),
  links: z
    .array(
      z.object({
        context: z.object({ traceId: TraceIdSchema, spanId: SpanIdSchema }).optional(),
        attributes: PlainAttributesSchema,
      }),
    )
    .optional(),
  instrumentationLibrary: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  // Kept only so a dialect can tell which runtime wrote the span (TraceDataWriterOf).
  sameProcessAsParentSpan: z.unknown().optional(),
  spanKind: SpanKindNameSchema,
  status: z.object({ code: z.union([z.literal(0), z.literal(1), z.literal(2)]), message: z.string().optional() }).optional(),
  timeEvents: z
    .object({
      timeEvent: z
        .array(z.object({ time: MillisSchema, annotation: z.object({ attributes: PlainAttributesSchema, description: z.string() }) }))
        .optional(),
    })
    .optional(),
});

/** A Genkit Dev UI `TraceData` document. */
export const GenkitTraceDataSchema = z.object({
  traceId: TraceIdSchema,
  displayName: z.string().optional(),
  startTime: MillisSchema.optional(),
  endTime: MillisSchema.optional(),
  spans: z.record(z.string(), GenkitSpanDataSchema),
});

export type GenkitTraceData = z.input<typeof GenkitTraceDataSchema>;
type GenkitSpanData = z.output<typeof GenkitSpanDataSchema>;

/**
 * What is known of the program that wrote one TraceData span. TraceData carries no resource,
 * and genkit JS, Go and Python write it alike but not identically (genkit Go puts OTel-Go's
 * status codes in it: 1 = Error). Which runtime wrote a span is dialect knowledge, a layer above
 * this one, so the caller passes it in (lib/runtimes/genkit-reflection/trace-data-writer.ts).
 */
export interface TraceDataWriter {
  /** Put on the span's resource as `telemetry.sdk.language`, as the writer's OTLP export would have. */
  language?: string;
  /** The writer's status code as OTLP's. */
  otlpStatusCode?: (code: SpanStatusCode) => SpanStatusCode;
}

/** The writer of one TraceData span, told from the fields it wrote (undefined: unknown, read as written). */
export type TraceDataWriterOf = (span: { links?: unknown; sameProcessAsParentSpan?: unknown }) => TraceDataWriter | undefined;

/** A plain JS attribute value → `AttributeValue` (objects become null-prototype maps; undefined is dropped). */
function toAttributeValue(value: unknown): AttributeValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((item) => toAttributeValue(item) ?? null);
  if (typeof value === 'object') return toAttributes(value as Record<string, unknown>);
  return undefined;
}

function toAttributes(record: Record<string, unknown> | undefined): Attributes {
  const attributes = createAttributes();
  if (!record) return attributes;
  for (const key of Object.keys(record)) {
    const value = toAttributeValue(record[key]);
    if (value !== undefined) attributes[key] = value;
  }
  return attributes;
}

function toSpan(data: GenkitSpanData, writer: TraceDataWriter | undefined): Span {
  const code = (data.status?.code ?? 0) as SpanStatusCode;
  const scope: Span['scope'] = { name: data.instrumentationLibrary?.name ?? '' };
  if (data.instrumentationLibrary?.version !== undefined) scope.version = data.instrumentationLibrary.version;
  const span: Span = {
    traceId: data.traceId,
    spanId: data.spanId,
    name: data.displayName,
    kind: data.spanKind,
    startTimeUnixNano: millisToNanos(data.startTime),
    attributes: toAttributes(data.attributes),
    events: (data.timeEvents?.timeEvent ?? []).map((event) => ({
      name: event.annotation.description,
      timeUnixNano: millisToNanos(event.time),
      attributes: toAttributes(event.annotation.attributes),
    })),
    links: (data.links ?? []).flatMap((link) =>
      // A link without a context points nowhere; there is nothing to keep.
      link.context ? [{ traceId: link.context.traceId, spanId: link.context.spanId, attributes: toAttributes(link.attributes) }] : [],
    ),
    status: { code: writer?.otlpStatusCode ? writer.otlpStatusCode(code) : code },
    // TraceData carries no resource: the Dev UI's trace store drops it.
    resource: createAttributes(),
    scope,
  };
  if (writer?.language) span.resource['telemetry.sdk.language'] = writer.language;
  if (data.status?.message !== undefined) span.status.message = data.status.message;
  if (data.parentSpanId !== undefined) span.parentSpanId = data.parentSpanId;
  if (data.endTime !== undefined && data.endTime > 0) span.endTimeUnixNano = millisToNanos(data.endTime);
  return span;
}

/** True when the value has the shape of a `TraceData` document (string `traceId` and a `spans` map). */
export function isGenkitTraceData(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { traceId, spans } = body as { traceId?: unknown; spans?: unknown };
  return typeof traceId === 'string' && typeof spans === 'object' && spans !== null && !Array.isArray(spans);
}

/**
 * Validates a Genkit `TraceData` document and normalizes its spans (in file order).
 * @param options.writerOf tells each span's writer (its language, its status codes); without it spans are read as genkit JS writes them
 * @throws LoopscopeError INVALID_ARGUMENT naming the first problem and its path.
 */
export function decodeGenkitTraceData(body: unknown, options: { writerOf?: TraceDataWriterOf } = {}): Span[] {
  const parsed = GenkitTraceDataSchema.safeParse(body);
  if (!parsed.success) {
    throw new LoopscopeError('INVALID_ARGUMENT', describeFirstIssue(parsed.error, 'Genkit TraceData'), { cause: parsed.error });
  }
  return Object.values(parsed.data.spans).map((data) => toSpan(data, options.writerOf?.(data)));
}
