import type { RecordedValue, SpanView } from '../../contract/span-view';
import { classifySpan } from '../../runtimes/classify-span';
import { dialectOf } from '../../runtimes/index';
import { boundText } from '../../spans/bounded-text';
import { parseJsonAttribute } from '../../spans/parse-json-attribute';
import { nanosToMillis, spanDurationMillis, type AttributeValue, type Span } from '../../spans/span';

function recorded(value: AttributeValue | undefined): RecordedValue | undefined {
  if (value === undefined) return undefined;
  const parsed = parseJsonAttribute(value);
  return parsed.ok ? { parsed: true, value: parsed.value } : { parsed: false, raw: String(parsed.raw), reason: parsed.error };
}

/**
 * The detail panel's view of one span: classified, its input, output and interrupt/resume
 * metadata parsed (or kept as raw text with the reason), the other attributes, events and
 * links as recorded. Built on the server, with the recording runtime's dialect reading its
 * attributes, so no page reads runtime attributes.
 */
export function spanView(span: Span): SpanView {
  const classification = classifySpan(span);
  const interrupted = classification.outcome === 'interrupted';
  // The runtime that recorded the span knows which attributes hold its values.
  const dialect = dialectOf(span);
  const label = boundText(classification.label);
  const values = dialect?.spanValues(span, interrupted) ?? { attributeKeys: [] };
  const shownApart = new Set(values.attributeKeys);
  // Keys come from the trace: a null-prototype map keeps `__proto__` an ordinary key.
  const attributes: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(span.attributes)) if (!shownApart.has(key)) attributes[key] = value;
  // Absent values stay undefined: JSON leaves them out.
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    runtime: dialect?.id,
    name: span.name,
    role: classification.role,
    // The header's words are bounded; the whole label is here too when it is not the name.
    label,
    ...(label !== classification.label && classification.label !== span.name ? { wholeLabel: classification.label } : {}),
    outcome: classification.outcome,
    startTime: nanosToMillis(span.startTimeUnixNano),
    durationMs: spanDurationMillis(span),
    errorMessage: classification.errorMessage,
    input: recorded(values.input),
    output: recorded(values.output),
    interruptMetadata: recorded(values.interruptMetadata),
    resumedMetadata: recorded(values.resumedMetadata),
    conversation: dialect?.conversationOf?.(span),
    attributes,
    events: span.events.map((event) => ({ name: event.name, timeUnixNano: event.timeUnixNano, attributes: { ...event.attributes } })),
    links: span.links.map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: { ...link.attributes } })),
  };
}
