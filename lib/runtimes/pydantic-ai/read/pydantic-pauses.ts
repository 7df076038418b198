/**
 * Pydantic AI's pauses in its own words (docs/guides/pydantic-ai.md, "The pauses"): a tool that
 * raised `ApprovalRequired` or `CallDeferred` has a tool span with `pydantic_ai.tool.deferral.name`
 * (status UNSET: neither an error nor a result); a `requires_approval=True` tool or an
 * `ExternalToolset` tool waits with **no** tool span, named only in the run's `final_result`
 * (`DeferredToolRequests`). A call deferred as a question is marked only in `final_result._kinds`.
 */
import type { Span } from '../../../spans/span';
import type { CallPause, LoopPause } from '../../genai-loop/loop-flavor';
import type { ToolCall } from '../../../loop/loop-model';
import type { SpanIndex } from '../../../loop/span-index';
import { parsedValue } from '../../genai-loop/genai-span-reading';
import { genAiOperation, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { deferredToolRequests, toolKindsOf, type DeferredCall } from './deferred-tool-requests';
import { PYDANTIC_AI } from './pydantic-attributes';

/** Pydantic AI's words for each kind of pause, shown as `paused: <words>`. */
export const PAUSED_AS = {
  requiresApproval: 'approval required (requires_approval)',
  approvalRequired: 'approval required (ApprovalRequired)',
  approval: 'approval required',
  callDeferred: 'deferred (CallDeferred)',
  question: 'deferred: question (CallDeferred)',
  external: 'deferred (external tool)',
  deferred: 'deferred',
} as const;

/** A tool span that deferred (`ApprovalRequired`, `CallDeferred`): a pause, never an error nor a result. */
export function pydanticPauseOf(span: Span): LoopPause | undefined {
  const deferral = stringAttribute(span.attributes[PYDANTIC_AI.deferralName]);
  if (deferral === undefined) return undefined;
  const metadata = parsedValue(span.attributes[PYDANTIC_AI.deferralMetadata]);
  const pausedAs = deferral === 'ApprovalRequired' ? PAUSED_AS.approvalRequired : deferral === 'CallDeferred' ? PAUSED_AS.callDeferred : `deferred (${deferral})`;
  return { pausedAs, metadata: metadata ?? true, evidence: 'attribute' };
}

/** The agent run a span belongs to (its nearest `invoke_agent` ancestor). */
export function agentRunOf(index: SpanIndex, span: Span): Span | undefined {
  for (let current = index.parentOf(span); current; current = index.parentOf(current)) if (genAiOperation(current) === 'invoke_agent') return current;
  return undefined;
}

/** How a call without a tool span waits, from its entry in `DeferredToolRequests` and its tool's kind. */
function pausedAsOf(call: DeferredCall, toolKind: string | undefined): string {
  if (call.waitsFor === 'approval') return toolKind === 'unapproved' ? PAUSED_AS.requiresApproval : PAUSED_AS.approval;
  if (toolKind === 'external') return PAUSED_AS.external;
  return call.kind === 'question' ? PAUSED_AS.question : PAUSED_AS.deferred;
}

/**
 * The calls a paused run left waiting that no tool span shows (`requires_approval`, external
 * tools), each naming its tool call id: from the run's `final_result`, their kind from the last
 * model call's `model_request_parameters`.
 */
export function pydanticPausesOfCall(options: { index: SpanIndex; root: Span }): CallPause[] {
  const deferred = deferredToolRequests(options.root);
  if (!deferred) return [];
  const models = options.index.childrenOf(options.root).filter((child) => genAiOperation(child) === 'chat');
  const kinds = models.length > 0 ? toolKindsOf(models[models.length - 1]) : new Map<string, string>();
  return deferred.map((call) => ({ callId: call.callId, pausedAs: pausedAsOf(call, kinds.get(call.toolName)), metadata: call.metadata ?? true, evidence: 'result' as const }));
}

const MODEL_RETRY = { code: 'model-retry', words: 'retry asked (ModelRetry) — the model was told why and the loop went on' };
const TOOL_FAILED = { code: 'tool-failed', words: 'failed (ToolFailed) — the error was given to the model and the loop went on' };

/**
 * A tool call's facts only Pydantic AI records: a retry the tool asked for (`ModelRetry`) or a
 * failure it handed the model (`ToolFailed`) in its words, and a deferred call that is a question.
 */
export function decoratePydanticTool(options: { call: ToolCall; span: Span; index: SpanIndex }): void {
  const { call, span } = options;
  if (call.status === 'error' && call.loopWentOn) {
    if (span.attributes[PYDANTIC_AI.retryCause] === 'model_retry') call.runtimeState = MODEL_RETRY;
    else if (span.events.some((event) => event.name === 'exception' && String(event.attributes['exception.type'] ?? '').endsWith('ToolFailedError'))) call.runtimeState = TOOL_FAILED;
  }
  if (call.status === 'interrupted' && call.interrupt?.pausedAs === PAUSED_AS.callDeferred && call.ref !== undefined) {
    const root = agentRunOf(options.index, span);
    const entry = root ? deferredToolRequests(root)?.find((candidate) => candidate.callId === call.ref) : undefined;
    if (entry?.kind === 'question') call.interrupt.pausedAs = PAUSED_AS.question;
  }
}

