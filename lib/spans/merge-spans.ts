import { spanKey, type Span } from './span';

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
  const positions = new Map<string, number>();
  merged.forEach((span, position) => positions.set(spanKey(span), position));
  for (const span of incoming) {
    const key = spanKey(span);
    const position = positions.get(key);
    if (position === undefined) {
      positions.set(key, merged.length);
      merged.push(span);
    } else if (span.endTimeUnixNano !== undefined || merged[position].endTimeUnixNano === undefined) {
      merged[position] = span;
    }
  }
  return merged;
}
