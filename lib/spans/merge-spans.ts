import type { Span } from './span';

/**
 * Merges incoming spans into existing ones without mutating either list.
 *
 * A span seen twice (same traceId + spanId) keeps its first position and takes the later
 * version — exporters such as genkit's realtime span processor send a span when it starts
 * and again when it ends — except that an ended version is never replaced by an open one
 * (the start export can arrive after the end export when batches race).
 */
export function mergeSpans(existing: readonly Span[], incoming: readonly Span[]): Span[] {
  const merged = [...existing];
  // traceId → spanId → position: nested maps, so merging builds no key string per span (a
  // trace file's spans are all merged on load).
  const positions = new Map<string, Map<string, number>>();
  const inTrace = (span: Span) => {
    let spans = positions.get(span.traceId);
    if (!spans) positions.set(span.traceId, (spans = new Map()));
    return spans;
  };
  merged.forEach((span, position) => inTrace(span).set(span.spanId, position));
  for (const span of incoming) {
    const spans = inTrace(span);
    const position = spans.get(span.spanId);
    if (position === undefined) {
      spans.set(span.spanId, merged.length);
      merged.push(span);
    } else if (span.endTimeUnixNano !== undefined || merged[position].endTimeUnixNano === undefined) {
      merged[position] = span;
    }
  }
  return merged;
}
