import { compareNanos, spanKey, type Span } from '../spans/span';
import type { SpanClassification } from '../spans/span-classification';

export { spanKey };

/**
 * Lookups over one set of spans, built once per `buildRunGraph` call (never cached across
 * calls). Keys are `${traceId}:${spanId}` so several traces can share a file.
 */
export interface SpanIndex {
  /** Every span once (an ended copy wins over an open one). */
  spans: Span[];
  children: Map<Span, Span[]>;
  parents: Map<Span, Span>;
  classification: Map<Span, SpanClassification>;
  classify(span: Span): SpanClassification;
  parentOf(span: Span): Span | undefined;
  childrenOf(span: Span): Span[];
}

/**
 * Indexes spans for one build. `classify` says what each span is (the dialects' dispatcher,
 * lib/loop/classify-span.ts); each span is classified once, on first ask.
 */
export function buildSpanIndex(spans: readonly Span[], classifySpan: (span: Span) => SpanClassification): SpanIndex {
  // traceId → spanId → span: nested maps, so indexing builds no key strings.
  const byTrace = new Map<string, Map<string, Span>>();
  for (const span of spans) {
    let inTrace = byTrace.get(span.traceId);
    if (!inTrace) byTrace.set(span.traceId, (inTrace = new Map()));
    const existing = inTrace.get(span.spanId);
    // An ended span wins over an open copy of itself (spans can arrive twice).
    if (!existing || existing.endTimeUnixNano === undefined) inTrace.set(span.spanId, span);
  }
  const unique: Span[] = [];
  for (const inTrace of byTrace.values()) for (const span of inTrace.values()) unique.push(span);
  // Keyed by the span objects themselves: lookups during the walk build no strings.
  const children = new Map<Span, Span[]>();
  const parents = new Map<Span, Span>();
  for (const span of unique) {
    if (!span.parentSpanId) continue;
    const parent = byTrace.get(span.traceId)?.get(span.parentSpanId);
    if (!parent || parent === span) continue;
    parents.set(span, parent);
    const list = children.get(parent);
    if (list) list.push(span);
    else children.set(parent, [span]);
  }
  // Spans arrive in any order: siblings are ordered by start time.
  for (const list of children.values()) list.sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  const classification = new Map<Span, SpanClassification>();
  const classify = (span: Span) => {
    let result = classification.get(span);
    if (!result) {
      result = classifySpan(span);
      classification.set(span, result);
    }
    return result;
  };
  const none: Span[] = [];
  return {
    spans: unique,
    children,
    parents,
    classification,
    classify,
    parentOf: (span) => parents.get(span),
    childrenOf: (span) => children.get(span) ?? none,
  };
}

/**
 * The nearest ancestor that is a top-level call's span (role `generate`), and whether the
 * walk up ended without reaching a true root — a parent that is not loaded, or a cycle in
 * broken data (then a dialect may know more from the span's own attributes: genkit's
 * `genkit:path`).
 */
export function enclosingCall(index: SpanIndex, span: Span): { call?: Span; chainBroken: boolean } {
  let current = index.parentOf(span);
  let last: Span = span;
  const seen = new Set<Span>([span]);
  while (current && !seen.has(current)) {
    if (index.classify(current).role === 'generate') return { call: current, chainBroken: false };
    seen.add(current);
    last = current;
    current = index.parentOf(current);
  }
  // Not ended at a true root: a parent is not loaded, or the chain runs in a circle.
  return { chainBroken: last.parentSpanId !== undefined };
}

/** The closest enclosing flow span, if any. */
export function enclosingFlow(index: SpanIndex, span: Span): Span | undefined {
  let current = index.parentOf(span);
  const seen = new Set<Span>();
  while (current && !seen.has(current)) {
    if (index.classify(current).role === 'flow') return current;
    seen.add(current);
    current = index.parentOf(current);
  }
  return undefined;
}
