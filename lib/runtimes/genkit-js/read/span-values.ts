import type { AttributeValue, Span } from '../../../spans/span';
import type { SpanValues } from '../../../loop/runtime-dialect';

// genkit's attribute names for what went in and came out of an action, and a tool's
// interrupt / resume metadata (all JSON strings: docs/interrupt-model.md §4).
const INPUT = 'genkit:input';
const OUTPUT = 'genkit:output';
const INTERRUPT = 'genkit:metadata:interrupt';
const RESUMED = 'genkit:metadata:resumed';

/** The recorded values of a genkit span, by genkit's attribute names. */
export function genkitSpanValues(span: Span, interrupted: boolean): SpanValues {
  const value = (key: string): AttributeValue | undefined => span.attributes[key];
  return {
    input: value(INPUT),
    output: value(OUTPUT),
    // An interrupt without metadata is `interrupt()` with none: genkit's own answer is `true`.
    interruptMetadata: interrupted ? (value(INTERRUPT) ?? 'true') : undefined,
    resumedMetadata: value(RESUMED),
    attributeKeys: [INPUT, OUTPUT, INTERRUPT, RESUMED],
  };
}
