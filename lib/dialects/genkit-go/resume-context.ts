import { genkitResumeContextOf } from '../genkit-js/resume-context';
import type { ResumeContext } from '../resume-model';
import type { SpanIndex } from '../span-index';
import type { Span } from '../../trace/span';
import { GENKIT_GO_DIALECT_ID } from './dialect-id';

/**
 * A paused genkit Go call's context: genkit's (the output records the request and the
 * interrupted message, the wire is JS's), with the model from its model span — genkit Go 1.4.0
 * does not record the model in the generate's input.
 */
export function goResumeContextOf(root: Span, index: SpanIndex): ResumeContext {
  const context = genkitResumeContextOf(root);
  const own = index.spans.find((span) => span.traceId === root.traceId && span.spanId === root.spanId) ?? root;
  const model = context.model ?? index.childrenOf(own).find((child) => index.classify(child).role === 'model')?.name;
  return { ...context, dialect: GENKIT_GO_DIALECT_ID, ...(model ? { model } : {}) };
}
