import type { Span } from '../spans/span';
import { classifyOtelSpan, type SpanClassification } from '../spans/span-classification';
import { dialectOf, DIALECTS } from './index';
import type { RuntimeDialect } from '../loop/runtime-dialect';

export type { SpanClassification, SpanOutcome, SpanRole } from '../spans/span-classification';

/** What a span is in the loop model, by the dialect that claims it. Pure; compute once per span and keep the result. */
export function classifySpan(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): SpanClassification {
  return dialectOf(span, dialects)?.classify(span) ?? classifyOtelSpan(span);
}
