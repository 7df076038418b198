import { classifySpan, type SpanClassification } from '../trace/classify-span';
import { compareNanos, type Span } from '../trace/span';

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

export function spanKey(span: { traceId: string; spanId: string }): string {
  return `${span.traceId}:${span.spanId}`;
}

export function buildSpanIndex(spans: readonly Span[]): SpanIndex {
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

const GENERATE_SEGMENT = /\{generate,t:(util|action)/g;

/**
 * True when a generate span sits inside another generate (a later turn). Walks the parent
 * chain; where a parent is missing, falls back to `genkit:path`, which names the ancestry.
 */
export function isNestedGenerate(index: SpanIndex, span: Span): boolean {
  let current = index.parentOf(span);
  let last: Span = span;
  const seen = new Set<Span>([span]);
  while (current && !seen.has(current)) {
    if (index.classify(current).role === 'generate') return true;
    seen.add(current);
    last = current;
    current = index.parentOf(current);
  }
  if (last.parentSpanId === undefined) return false;
  // The chain broke at a missing parent: the path still tells how many generates enclose us.
  const path = span.attributes['genkit:path'];
  if (typeof path !== 'string') return false;
  return (path.match(GENERATE_SEGMENT)?.length ?? 0) > 1;
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
