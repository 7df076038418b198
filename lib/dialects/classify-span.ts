import type { Span } from '../trace/span';
import { classifyOtelSpan, type SpanClassification } from '../trace/span-classification';
import { dialectDispatch, type DialectDispatch } from './dialect-dispatch';
import { dialectOf, DIALECTS } from './registry';
import type { RuntimeDialect } from './runtime-dialect';
import type { SpanClaim, SpanIndex } from './span-index';

export type { SpanClassification, SpanOutcome, SpanRole } from '../trace/span-classification';

/** What a span is in the loop model, by the dialect that claims it. Pure; compute once per span and keep the result. */
export function classifySpan(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): SpanClassification {
  return dialectOf(span, dialects)?.classify(span) ?? classifyOtelSpan(span);
}

/**
 * The claimer of a build's span index: whose each span is (one dispatch over the dialects) and
 * what that dialect says it is, or what its OpenTelemetry fields say when no dialect claims it.
 */
export function spanClaimer(dialects: readonly RuntimeDialect[] = DIALECTS): (span: Span, index: SpanIndex) => SpanClaim {
  const dispatch: DialectDispatch = dialects === DIALECTS ? (span) => dialectOf(span) : dialectDispatch(dialects);
  return (span, index) => {
    const dialect = dispatch(span);
    return { dialect, classification: dialect ? dialect.classify(span, index) : classifyOtelSpan(span) };
  };
}
