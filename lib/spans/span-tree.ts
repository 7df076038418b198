import { boundOptionalText, boundText, MESSAGE_MAX_CHARACTERS } from './bounded-text';
import { classifyOtelSpan, type SpanClassification, type SpanOutcome, type SpanRole } from './span-classification';
import { compareNanos, nanosToMillis, spanDurationMillis, type Span } from './span';

/** One row of the span tree the page draws. Plain data: components compute nothing. */
export interface SpanTreeNode {
  spanId: string;
  traceId: string;
  role: SpanRole;
  label: string;
  outcome: SpanOutcome;
  /** Short words for the status, e.g. "paused — waiting for an answer". */
  statusText: string;
  restarted: boolean;
  errorMessage?: string;
  durationMs?: number;
  /** Milliseconds since the epoch the span started (for the timeline). */
  startMs: number;
  depth: number;
  /** The parent was referenced but never arrived: this span was promoted to a root. */
  orphan: boolean;
  children: SpanTreeNode[];
}

const STATUS_TEXT: Record<SpanOutcome, string> = {
  ok: 'ok',
  error: 'failed',
  interrupted: 'paused — waiting for an answer',
  running: 'running…',
};

/**
 * Builds the span forest of one or more traces: children sorted by start time, spans whose
 * parent never arrived become roots (marked orphan), roots ordered by start time.
 * `classifySpan`: what each span is (the dialects' classifier names roles and labels; by default
 * only OpenTelemetry fields are read).
 */
export function buildSpanTree(spans: readonly Span[], classifySpan: (span: Span) => SpanClassification = classifyOtelSpan): SpanTreeNode[] {
  const byId = new Map<string, Span>();
  for (const span of spans) byId.set(`${span.traceId}:${span.spanId}`, span);
  const childrenOf = new Map<string, Span[]>();
  const roots: Span[] = [];
  for (const span of byId.values()) {
    const parentKey = span.parentSpanId ? `${span.traceId}:${span.parentSpanId}` : undefined;
    if (parentKey && byId.has(parentKey) && span.parentSpanId !== span.spanId) {
      const siblings = childrenOf.get(parentKey) ?? [];
      siblings.push(span);
      childrenOf.set(parentKey, siblings);
    } else {
      roots.push(span);
    }
  }
  const byStart = (a: Span, b: Span) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano);

  const visited = new Set<string>();
  const visit = ({ span, depth, ancestors }: { span: Span; depth: number; ancestors: Set<string> }): SpanTreeNode => {
    const key = `${span.traceId}:${span.spanId}`;
    visited.add(key);
    const classification = classifySpan(span);
    // A cycle in hand-edited data must not recurse forever.
    const nextAncestors = new Set(ancestors).add(key);
    const children = (childrenOf.get(key) ?? [])
      .filter((child) => !nextAncestors.has(`${child.traceId}:${child.spanId}`))
      .sort(byStart)
      .map((child) => visit({ span: child, depth: depth + 1, ancestors: nextAncestors }));
    return {
      spanId: span.spanId,
      traceId: span.traceId,
      role: classification.role,
      // A row shows a bounded label, as the trace lists do; the detail panel shows the whole.
      label: boundText(classification.label),
      outcome: classification.outcome,
      statusText: classification.restarted && classification.outcome === 'ok' ? 'ok — restarted by a resume' : STATUS_TEXT[classification.outcome],
      restarted: classification.restarted,
      errorMessage: boundOptionalText(classification.errorMessage, MESSAGE_MAX_CHARACTERS),
      durationMs: spanDurationMillis(span),
      startMs: nanosToMillis(span.startTimeUnixNano),
      depth,
      orphan: depth === 0 && span.parentSpanId !== undefined,
      children,
    };
  };
  const forest = roots.sort(byStart).map((root) => visit({ span: root, depth: 0, ancestors: new Set() }));
  // Spans caught in a parent cycle (hand-edited data) have no root above them: show them
  // as roots rather than let them vanish.
  for (const span of [...byId.values()].sort(byStart)) {
    if (!visited.has(`${span.traceId}:${span.spanId}`)) forest.push(visit({ span, depth: 0, ancestors: new Set() }));
  }
  return forest;
}

/** Depth-first list of the forest, for keyboard navigation and flat rendering. */
export function flattenSpanTree(nodes: readonly SpanTreeNode[]): SpanTreeNode[] {
  const result: SpanTreeNode[] = [];
  const walk = (node: SpanTreeNode) => {
    result.push(node);
    node.children.forEach(walk);
  };
  nodes.forEach(walk);
  return result;
}
