import { genkitResumeContextOf } from '../../genkit-js/read/resume-context';
import type { ResumeContext } from '../../../loop/resume-model';
import type { SpanIndex } from '../../../loop/span-index';
import type { Span } from '../../../spans/span';
import { GENKIT_GO_DIALECT_ID } from './dialect-id';
import { holdOf, TOOL_APPROVAL, toolApprovalsOf } from './tool-approval';

/**
 * A paused genkit Go call's context: genkit's (the output records the request and the
 * interrupted message, the wire is JS's), with the model from its model span when the input
 * names none, the ToolApproval middleware it used (`use`), and each request the middleware
 * held marked as held, with what releases it.
 */
export function goResumeContextOf(root: Span, index: SpanIndex): ResumeContext {
  const context = genkitResumeContextOf(root);
  const own = index.spans.find((span) => span.traceId === root.traceId && span.spanId === root.spanId) ?? root;
  const model = context.model ?? index.childrenOf(own).find((child) => index.classify(child).role === 'model')?.name;
  const approvals = toolApprovalsOf(own);
  const requests = context.requests.map((request) => {
    const hold = request.state === 'interrupted' ? holdOf({ approvals, tool: request.name, interruptMetadata: request.interruptMetadata }) : undefined;
    return hold ? { ...request, heldBy: hold } : request;
  });
  return {
    ...context,
    dialect: GENKIT_GO_DIALECT_ID,
    ...(model ? { model } : {}),
    requests,
    ...(approvals.length > 0 ? { use: approvals.map((config) => ({ name: TOOL_APPROVAL.name, config })) } : {}),
  };
}
