/**
 * The bytes an OpenTelemetry OTLP/HTTP protobuf exporter would send for recorded spans: our
 * `Span` records handed to the real `ProtobufTraceSerializer` of
 * `@opentelemetry/otlp-transformer` as the `ReadableSpan`s it serializes, so a test can turn a
 * committed fixture of a real genkit run into an OTLP protobuf trace file.
 */
import { TraceFlags, type HrTime, type SpanContext } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Attributes, Span } from '../span';

type SdkAttributes = ReadableSpan['attributes'];

function hrTime(nanos: string): HrTime {
  const value = BigInt(nanos);
  return [Number(value / 1_000_000_000n), Number(value % 1_000_000_000n)];
}

const context = (traceId: string, spanId: string): SpanContext => ({ traceId, spanId, traceFlags: TraceFlags.SAMPLED });

/** The SDK's attribute type is flat; the serializer encodes nested values as AnyValue all the same. */
const sdkAttributes = (attributes: Attributes) => ({ ...attributes }) as SdkAttributes;

function readableSpan(span: Span, resource: Resource): ReadableSpan {
  const endTime = hrTime(span.endTimeUnixNano ?? span.startTimeUnixNano);
  return {
    name: span.name,
    // The API's SpanKind has no "unspecified": OTLP kind = API kind + 1.
    kind: Math.max(span.kind - 1, 0),
    spanContext: () => context(span.traceId, span.spanId),
    parentSpanContext: span.parentSpanId ? context(span.traceId, span.parentSpanId) : undefined,
    startTime: hrTime(span.startTimeUnixNano),
    endTime,
    status: { code: span.status.code, message: span.status.message },
    attributes: sdkAttributes(span.attributes),
    links: span.links.map((link) => ({ context: context(link.traceId, link.spanId), attributes: sdkAttributes(link.attributes) })),
    events: span.events.map((event) => ({ name: event.name, time: hrTime(event.timeUnixNano), attributes: sdkAttributes(event.attributes) })),
    duration: [0, 0],
    ended: true,
    resource,
    instrumentationScope: { name: span.scope.name, version: span.scope.version },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/**
 * An OTLP protobuf `ExportTraceServiceRequest` holding `spans` (ended ones; an open span is
 * given its start time as end), encoded by OpenTelemetry's own serializer.
 */
export function encodeOtlpProtobufFile(spans: Span[]): Uint8Array {
  // The serializer groups spans by resource object: one object per distinct resource.
  const resources = new Map<string, Resource>();
  const readable = spans.map((span) => {
    const key = JSON.stringify(Object.entries(span.resource));
    if (!resources.has(key)) resources.set(key, resourceFromAttributes(sdkAttributes(span.resource)));
    return readableSpan(span, resources.get(key)!);
  });
  const bytes = ProtobufTraceSerializer.serializeRequest(readable);
  if (!bytes) throw new Error('ProtobufTraceSerializer returned nothing');
  return bytes;
}
