import { classifySpan } from '../runtimes/classify-span';
import type { Span } from '../spans/span';
import { buildSpanTree, type SpanTreeNode } from '../spans/span-tree';

export type { SpanTreeNode };

/** The span tree a page draws: every span classified by the dialect that recorded it (roles, labels, pauses). Pure. */
export function spanTreeOf(spans: readonly Span[]): SpanTreeNode[] {
  return buildSpanTree(spans, classifySpan);
}
