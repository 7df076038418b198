import type { Span } from '../spans/span';
import { classifyOtelSpan, type SpanClassification } from '../spans/span-classification';
import { dialectOf, DIALECTS } from './index';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import type { SpanClaim, SpanIndex } from '../loop/span-index';

export type { SpanClassification, SpanOutcome, SpanRole } from '../spans/span-classification';

/** What a span is in the loop model, by the dialect that claims it. Pure; compute once per span and keep the result. */
export function classifySpan(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): SpanClassification {
  return dialectOf(span, dialects)?.classify(span) ?? classifyOtelSpan(span);
}

/**
 * The claimer of a build's span index: whose each span is (one dispatch over the dialects) and
 * what that dialect says it is, or what its OpenTelemetry fields say when no dialect claims it.
 */
export function spanClaimer(dialects: readonly RuntimeDialect[] = DIALECTS): (span: Span, index: SpanIndex) => SpanClaim {
  return (span, index) => {
    const dialect = dialectOf(span, dialects);
    return { dialect, classification: dialect ? dialect.classify(span, index) : classifyOtelSpan(span) };
  };
}
