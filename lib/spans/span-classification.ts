/**
 * What a span is in the loop model, whatever runtime recorded it: a top-level call's span
 * (`generate`: genkit's generate, the AI SDK's agent invocation), a model call, a tool
 * execution, a flow around calls, or something else. Each dialect classifies the spans it
 * claims (lib/runtimes/<runtime>/read/); `classifySpan` (lib/loop/classify-span.ts) picks the
 * dialect, and `classifyOtelSpan` below reads a span no dialect claims.
 */
import type { AttributeValue, Span } from './span';
export type SpanRole = 'generate' | 'model' | 'tool' | 'flow' | 'other';

/**
 * How a span ended. `interrupted` is a tool that asked for a human — a pause, never a
 * failure, although runtimes record it as an error (genkit-ai/genkit #4636).
 */
export type SpanOutcome = 'ok' | 'error' | 'interrupted' | 'running';

export interface SpanClassification {
  role: SpanRole;
  /** The runtime's name for what ran (the tool, the model, `generate`), else the span name. */
  label: string;
  outcome: SpanOutcome;
  /** A tool execution run again by a resume's restart. */
  restarted: boolean;
  /** The error message of a failed span (from the status or the exception event). */
  errorMessage?: string;
  /** The exception type recorded on the span, if any. */
  exceptionType?: string;
}

const text = (value: AttributeValue | undefined) => (typeof value === 'string' ? value : undefined);

/** A span read by its OpenTelemetry fields alone (no dialect claims it): named by its span name, ended or failed by its status. */
export function classifyOtelSpan(span: Span): SpanClassification {
  const exception = span.events.find((event) => event.name === 'exception');
  const exceptionType = text(exception?.attributes['exception.type']);
  const outcome = span.endTimeUnixNano === undefined ? 'running' : span.status.code === 2 ? 'error' : 'ok';
  return {
    role: 'other',
    label: span.name,
    outcome,
    restarted: false,
    errorMessage: outcome === 'error' ? span.status.message || text(exception?.attributes['exception.message']) || exceptionType || 'failed without a message' : undefined,
    exceptionType,
  };
}
