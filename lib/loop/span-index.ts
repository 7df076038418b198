import { compareNanos, spanKey, type Span } from '../spans/span';
import type { SpanClassification, SpanRole } from '../spans/span-classification';
import type { RuntimeDialect } from './runtime-dialect';

export { spanKey };

/** A kind of value a reader keeps once per span and build (`SpanIndex.memo`): a parsed attribute, a dialect's view of a span. */
export interface MemoSlot<T> {
  readonly name: string;
  /** Never set: carries the kept value's type. */
  readonly value?: T;
}

/** A memo slot, made once by the reader that keeps values in it (at module level: the slot holds nothing itself). */
export function memoSlot<T>(name: string): MemoSlot<T> {
  return Object.freeze({ name });
}

/** Which runtime's span it is and what it is in the loop model: decided once per span and build. */
export interface SpanClaim {
  /** The dialect that claims the span, when one does. */
  dialect?: RuntimeDialect;
  classification: SpanClassification;
}

/**
 * Lookups over one set of spans, built once per `buildRunGraph` call (never cached across
 * calls). Spans are told apart by trace and span id, so several traces can share a file.
 */
export interface SpanIndex {
  /** Every span once (an ended copy wins over an open one). */
  spans: Span[];
  /** How many traces the spans belong to. */
  traceCount: number;
  /** What a span is in the loop model, by the dialect that claims it: asked of the dialects once per span. */
  classify(span: Span): SpanClassification;
  /** The dialect that claims a span (the one that classified it), when one does. */
  dialectOf(span: Span): RuntimeDialect | undefined;
  parentOf(span: Span): Span | undefined;
  childrenOf(span: Span): Span[];
  /**
   * `compute(span)`, once per span and slot in this build: what several readers of a build need
   * of one span — its classification and its call reader alike — is made (a JSON attribute
   * parsed) once. Readers share the value: none may change it. The last reader passes
   * `last: true`, and the value is let go: kept to the end of the build, it would be copied by
   * every collection of the young generation meanwhile.
   */
  memo<T>(options: { slot: MemoSlot<T>; span: Span; compute: (span: Span) => T; last?: boolean }): T;
}

/** What the index knows of one span. */
interface SpanNode {
  parent: Span | undefined;
  /** In start order; undefined for none. */
  children: Span[] | undefined;
  /** Its claim's fields, once claimed (kept here, not as the claim object: one object less per span to outlive the build's collections). */
  dialect: RuntimeDialect | undefined;
  classification: SpanClassification | undefined;
}

const newNode = (): SpanNode => ({ parent: undefined, children: undefined, dialect: undefined, classification: undefined });

/**
 * Sorts spans by start time in place, as the stable `sort` does. A few siblings — the usual
 * case, and a build sorts every span's children — by insertion, which allocates nothing (`sort`
 * makes a work area for every list) and takes one pass over siblings that arrived in order.
 */
function sortByStart(spans: Span[]): void {
  if (spans.length > 16) {
    spans.sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
    return;
  }
  for (let index = 1; index < spans.length; index++) {
    const span = spans[index];
    let at = index - 1;
    while (at >= 0 && compareNanos(spans[at].startTimeUnixNano, span.startTimeUnixNano) > 0) {
      spans[at + 1] = spans[at];
      at--;
    }
    spans[at + 1] = span;
  }
}

/**
 * Indexes spans for one build. `claimSpan` says whose each span is and what it is (`spanClaimer`
 * of lib/runtimes/classify-span.ts: one dispatch over the dialects); each span is claimed once,
 * on first ask.
 */
export function buildSpanIndex(spans: readonly Span[], claimSpan: (span: Span, index: SpanIndex) => SpanClaim): SpanIndex {
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
  // One node per span, keyed by the span object itself (lookups build no strings): its parent,
  // its children and, once asked, its claim — one map for all.
  const nodes = new Map<Span, SpanNode>();
  for (const span of unique) nodes.set(span, newNode());
  for (const span of unique) {
    if (!span.parentSpanId) continue;
    const parent = byTrace.get(span.traceId)?.get(span.parentSpanId);
    if (!parent || parent === span) continue;
    (nodes.get(span) as SpanNode).parent = parent;
    const parentNode = nodes.get(parent) as SpanNode;
    if (parentNode.children) parentNode.children.push(span);
    else parentNode.children = [span];
  }
  // Spans arrive in any order: siblings are ordered by start time.
  for (const node of nodes.values()) if (node.children) sortByStart(node.children);
  const claimed = (span: Span): SpanNode => {
    let node = nodes.get(span);
    // A span given but not indexed (an open copy of an ended one) is claimed all the same.
    if (!node) nodes.set(span, (node = newNode()));
    if (!node.classification) {
      const claim = claimSpan(span, index);
      node.dialect = claim.dialect;
      node.classification = claim.classification;
    }
    return node;
  };
  const memos = new Map<MemoSlot<unknown>, Map<Span, unknown>>();
  const none: Span[] = [];
  const index: SpanIndex = {
    spans: unique,
    traceCount: byTrace.size,
    classify: (span) => claimed(span).classification as SpanClassification,
    dialectOf: (span) => claimed(span).dialect,
    parentOf: (span) => nodes.get(span)?.parent,
    childrenOf: (span) => nodes.get(span)?.children ?? none,
    memo: <T>({ slot, span, compute, last = false }: { slot: MemoSlot<T>; span: Span; compute: (span: Span) => T; last?: boolean }): T => {
      let kept = memos.get(slot);
      if (!kept) memos.set(slot, (kept = new Map()));
      if (kept.has(span)) {
        const value = kept.get(span) as T;
        if (last) kept.delete(span);
        return value;
      }
      const value = compute(span);
      if (!last) kept.set(span, value);
      return value;
    },
  };
  return index;
}

/**
 * How far a walk up the parents goes before it keeps the spans it passed: a parent cycle in
 * broken data would otherwise never end, but real chains are far shorter, and a walk that keeps
 * no set allocates nothing (the build walks up from every call and tool span).
 */
const UNGUARDED_STEPS = 64;

/**
 * The nearest ancestor of `span` with `role`, and the last span the walk passed before it
 * stopped. The walk ends at a true root, a parent that is not loaded, or a span it passed
 * already; `startCounts`: `span` itself counts as passed (a cycle back to it ends the walk there).
 */
function walkUp(options: { index: SpanIndex; span: Span; role: SpanRole; startCounts: boolean }): { found?: Span; last: Span } {
  const { index, span, role, startCounts } = options;
  let last = span;
  let current = index.parentOf(span);
  // Without a set, a cycle only repeats spans already asked (nothing new is found) until the
  // walk is cut off and done again with one; a cycle back to a start that counts ends it here.
  for (let steps = 0; current && steps < UNGUARDED_STEPS; steps++) {
    if (startCounts && current === span) return { last };
    if (index.classify(current).role === role) return { found: current, last };
    last = current;
    current = index.parentOf(current);
  }
  if (!current) return { last };
  const seen = new Set<Span>(startCounts ? [span] : []);
  last = span;
  current = index.parentOf(span);
  while (current && !seen.has(current)) {
    if (index.classify(current).role === role) return { found: current, last };
    seen.add(current);
    last = current;
    current = index.parentOf(current);
  }
  return { last };
}

/**
 * The nearest ancestor that is a top-level call's span (role `generate`), and whether the
 * walk up ended without reaching a true root — a parent that is not loaded, or a cycle in
 * broken data (then a dialect may know more from the span's own attributes: genkit's
 * `genkit:path`).
 */
export function enclosingCall(index: SpanIndex, span: Span): { call?: Span; chainBroken: boolean } {
  const { found, last } = walkUp({ index, span, role: 'generate', startCounts: true });
  if (found) return { call: found, chainBroken: false };
  // Not ended at a true root: a parent is not loaded, or the chain runs in a circle.
  return { chainBroken: last.parentSpanId !== undefined };
}

/** The closest enclosing flow span, if any. */
export function enclosingFlow(index: SpanIndex, span: Span): Span | undefined {
  return walkUp({ index, span, role: 'flow', startCounts: false }).found;
}
