import type { RecordedValue, SpanView } from '../contract/span-view';
import { classifySpan } from '../trace/classify-span';
import { parseJsonAttribute } from '../trace/parse-json-attribute';
import { nanosToMillis, spanDurationMillis, type AttributeValue, type Span } from '../trace/span';

// genkit's attribute names for what went in and came out. They belong to the genkit JS
// dialect (issue 11): when lib/dialects offers a span reader, this file asks it instead.
const INPUT = 'genkit:input';
const OUTPUT = 'genkit:output';
const INTERRUPT = 'genkit:metadata:interrupt';
const RESUMED = 'genkit:metadata:resumed';
/** Shown as their own blocks, so left out of the attribute list. */
const SHOWN_APART = new Set([INPUT, OUTPUT, INTERRUPT, RESUMED]);

function recorded(value: AttributeValue | undefined): RecordedValue | undefined {
  if (value === undefined) return undefined;
  const parsed = parseJsonAttribute(value);
  return parsed.ok ? { parsed: true, value: parsed.value } : { parsed: false, raw: String(parsed.raw), reason: parsed.error };
}

/**
 * The detail panel's view of one span: classified, its input, output and interrupt/resume
 * metadata parsed (or kept as raw text with the reason), the other attributes, events and
 * links as recorded. Built on the server so no page reads runtime attributes.
 */
export function spanView(span: Span): SpanView {
  const classification = classifySpan(span);
  // Keys come from the trace: a null-prototype map keeps `__proto__` an ordinary key.
  const attributes: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(span.attributes)) if (!SHOWN_APART.has(key)) attributes[key] = value;
  const interrupted = classification.outcome === 'interrupted';
  // Absent values stay undefined: JSON leaves them out.
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    role: classification.role,
    label: classification.label,
    outcome: classification.outcome,
    startTime: nanosToMillis(span.startTimeUnixNano),
    durationMs: spanDurationMillis(span),
    errorMessage: classification.errorMessage,
    input: recorded(span.attributes[INPUT]),
    output: recorded(span.attributes[OUTPUT]),
    // An interrupt without metadata is `interrupt()` with none: genkit's own answer is `true`.
    interruptMetadata: interrupted ? recorded(span.attributes[INTERRUPT] ?? 'true') : undefined,
    resumedMetadata: recorded(span.attributes[RESUMED]),
    attributes,
    events: span.events.map((event) => ({ name: event.name, timeUnixNano: event.timeUnixNano, attributes: { ...event.attributes } })),
    links: span.links.map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: { ...link.attributes } })),
  };
}
