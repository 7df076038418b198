import { CLOSED_BY_ATTRIBUTE } from '../trace/loopscope-attributes';
import { createAttributes, type Span } from '../trace/span';
import type { SpanStartEvent } from './span-start';

/**
 * A span that has started but not ended, from the runner's start notice. It shows as
 * "running" until the ended span arrives over OTLP and replaces it.
 */
export function openSpanFromStart(event: SpanStartEvent): Span {
  const attributes = createAttributes();
  for (const [key, value] of Object.entries(event.attributes)) attributes[key] = value;
  return {
    traceId: event.traceId,
    spanId: event.spanId,
    parentSpanId: event.parentSpanId,
    name: event.name,
    kind: 1,
    startTimeUnixNano: event.startTimeUnixNano,
    attributes,
    events: [],
    links: [],
    status: { code: 0 },
    resource: resourceOf(event),
    // A start that names no scope is genkit's (the genkit Go runner, attached genkit apps).
    scope: event.scope ?? { name: 'genkit-tracer' },
  };
}

function resourceOf(event: SpanStartEvent): Span['resource'] {
  const resource = createAttributes();
  for (const [key, value] of Object.entries(event.resource ?? {})) resource[key] = value;
  return resource;
}

/**
 * A span that started and never ended because its process died, ended here as failed: it
 * keeps the name and the attributes its start carried, ends at `endTimeUnixNano`, and says
 * why (the status message) and that Loopscope, not the runtime, closed it (`loopscope:closed-by`).
 */
export function closedSpanFromStart(event: SpanStartEvent, close: { endTimeUnixNano: string; message: string; closedBy: string }): Span {
  const span = openSpanFromStart(event);
  span.attributes['genkit:name'] ??= event.name;
  span.attributes['genkit:state'] = 'error';
  span.attributes[CLOSED_BY_ATTRIBUTE] = close.closedBy;
  // The end never precedes the start (clocks of two processes).
  const end = BigInt(close.endTimeUnixNano) > BigInt(event.startTimeUnixNano) ? close.endTimeUnixNano : event.startTimeUnixNano;
  return { ...span, endTimeUnixNano: end, status: { code: 2, message: close.message } };
}
