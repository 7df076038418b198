import { createAttributes, type Span } from '../spans/span';
import type { SpanStartEvent } from './span-start';

/**
 * A span that has started but not ended, from the runner's start notice. It shows as
 * "running" until the ended span arrives and replaces it. Runtime-free: what its attributes
 * mean is its dialect's (lib/loop/open-spans.ts closes one in its runtime's shape).
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
    scope: event.scope ? { ...event.scope } : { name: 'genkit-tracer' },
  };
}

function resourceOf(event: SpanStartEvent): Span['resource'] {
  const resource = createAttributes();
  for (const [key, value] of Object.entries(event.resource ?? {})) resource[key] = value;
  return resource;
}
