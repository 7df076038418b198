import { LoopscopeError } from '../errors';
import { classifySpan, spanClaimer } from '../dialects/classify-span';
import { dialectOf } from '../dialects/registry';
import { buildSpanIndex } from '../dialects/span-index';
import type { ResumeContext } from '../dialects/resume-model';
import { compareNanos, type Span } from '../trace/span';

export type { PendingRequest, RecordedToolDefinition, ResumeContext } from '../dialects/resume-model';

/**
 * The context to resume one interrupted call of any loaded trace — the given one
 * (`generateSpanId`), else the last — rebuilt by the dialect that recorded it (its history, the
 * tools it offered, the requests and where each stands). A deep copy: nothing the caller does
 * with it changes the loaded spans.
 * @throws LoopscopeError FAILED_PRECONDITION when there is no interrupted call, or its runtime cannot be resumed here.
 */
export function resumeContextFrom(spans: readonly Span[], generateSpanId?: string): ResumeContext {
  const candidates = spans
    .filter((span) => {
      const classification = classifySpan(span);
      return classification.role === 'generate' && classification.outcome === 'interrupted';
    })
    .filter((span) => generateSpanId === undefined || span.spanId === generateSpanId)
    .sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  // The outermost span of the last interrupted call carries the full request.
  const root = candidates.filter((span) => !candidates.some((other) => other.traceId === span.traceId && other.spanId === span.parentSpanId)).at(-1);
  if (!root) {
    throw new LoopscopeError('FAILED_PRECONDITION', generateSpanId ? `Span ${generateSpanId} is not an interrupted generate.` : 'These spans hold no interrupted generate to resume.');
  }
  const dialect = dialectOf(root);
  if (!dialect?.resume) throw new LoopscopeError('FAILED_PRECONDITION', `Calls recorded by ${dialect?.title ?? 'this runtime'} cannot be resumed here yet.`);
  return dialect.resume.contextOf(root, buildSpanIndex(spans.filter((span) => span.traceId === root.traceId), spanClaimer()));
}
