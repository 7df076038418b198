import type { SpanStartEvent } from '../runtime/runner-protocol';
import { createAttributes, type Span } from './span';

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
    resource: createAttributes(),
    scope: { name: 'genkit-tracer' },
  };
}
