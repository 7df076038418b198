import { createAttributes, type AttributeValue, type Attributes, type Span, type SpanStatusCode } from '../spans/span';

/** [seconds, nanoseconds] since the epoch, as the OpenTelemetry SDK keeps times. */
export type HrTime = [number, number];

/**
 * A span that ended in the runner, as the OpenTelemetry SDK holds it (plain data, JSON over
 * IPC), with the run and request it belongs to (none for a span that started outside a run).
 * It is what the server stores of the runner's spans (`spanFromEndedRecord` below).
 */
export interface EndedSpanRecord {
  runId?: string;
  requestId?: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTime: HrTime;
  endTime: HrTime;
  attributes: Record<string, unknown>;
  events: { name: string; time: HrTime; attributes?: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes?: Record<string, unknown> }[];
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  scope: { name: string; version?: string };
}


function nanosOf(time: HrTime, what: string): string {
  const [seconds, nanos] = Array.isArray(time) ? time : [Number.NaN, Number.NaN];
  if (!Number.isSafeInteger(seconds) || !Number.isSafeInteger(nanos) || seconds < 0 || nanos < 0) {
    throw new TypeError(`${what} is not an [seconds, nanoseconds] time`);
  }
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

function attributeValue(value: unknown): AttributeValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(attributeValue);
  // OpenTelemetry attributes hold primitives and arrays only; anything else is kept as text.
  return JSON.stringify(value) ?? String(value);
}

/** A null-prototype copy (keys come from tools' code). */
function attributesOf(record: Record<string, unknown> | undefined): Attributes {
  const attributes = createAttributes();
  if (!record || typeof record !== 'object') return attributes;
  for (const key of Object.keys(record)) attributes[key] = attributeValue(record[key]);
  return attributes;
}

/**
 * The span an OTLP exporter would deliver, from the runner's IPC record of it: what the
 * server stores of the runner's spans.
 * @throws TypeError for a record whose times are not SDK times.
 */
export function spanFromEndedRecord(record: EndedSpanRecord): Span {
  const code = record.status?.code;
  return {
    traceId: String(record.traceId).toLowerCase(),
    spanId: String(record.spanId).toLowerCase(),
    ...(record.parentSpanId ? { parentSpanId: String(record.parentSpanId).toLowerCase() } : {}),
    name: String(record.name),
    kind: Number.isInteger(record.kind) ? record.kind + 1 : 0,
    startTimeUnixNano: nanosOf(record.startTime, 'startTime'),
    endTimeUnixNano: nanosOf(record.endTime, 'endTime'),
    attributes: attributesOf(record.attributes),
    events: (record.events ?? []).map((event) => ({ name: String(event.name), timeUnixNano: nanosOf(event.time, 'event time'), attributes: attributesOf(event.attributes) })),
    links: (record.links ?? []).map((link) => ({ traceId: String(link.traceId).toLowerCase(), spanId: String(link.spanId).toLowerCase(), attributes: attributesOf(link.attributes) })),
    status: { code: (code === 1 || code === 2 ? code : 0) as SpanStatusCode, ...(record.status?.message ? { message: String(record.status.message) } : {}) },
    resource: attributesOf(record.resource),
    scope: { name: String(record.scope?.name ?? ''), ...(record.scope?.version ? { version: String(record.scope.version) } : {}) },
  };
}
