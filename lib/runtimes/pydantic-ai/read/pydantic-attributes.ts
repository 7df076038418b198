/**
 * What Pydantic AI's own instrumentation (`Agent.instrument_all`, formats 5 and 6) records beyond
 * the OTel GenAI conventions (docs/guides/pydantic-ai.md, "What its spans record"): the agent
 * run's whole conversation and where this run starts in it, the run's output (the
 * `DeferredToolRequests` of a paused run), a deferring tool's deferral, a retried tool's cause,
 * and its own dump of each model request's tools (their kind: `function`, `unapproved`,
 * `external`).
 */
import type { Span } from '../../../spans/span';

/** The instrumentation scope of every span Pydantic AI records. */
export const PYDANTIC_AI_SCOPE = 'pydantic-ai';

export const PYDANTIC_AI = {
  /** On the agent run: the whole conversation (history included), in the conventions' message shape. */
  allMessages: 'pydantic_ai.all_messages',
  /** On a run given a history: where this run's messages start in `all_messages`. */
  newMessageIndex: 'pydantic_ai.new_message_index',
  /** On the agent run: its output (text, or the `DeferredToolRequests` JSON of a paused run); absent when it failed. */
  finalResult: 'final_result',
  /** The agent's model (`model_name`). */
  modelName: 'model_name',
  /** On a tool that deferred: `ApprovalRequired` or `CallDeferred`, and the metadata it raised with. */
  deferralName: 'pydantic_ai.tool.deferral.name',
  deferralMetadata: 'pydantic_ai.tool.deferral.metadata',
  /** On a tool that asked the model to retry (`model_retry`), its attempt and the limit. */
  retryCause: 'pydantic_ai.tool.retry.cause',
  retryAttempt: 'pydantic_ai.tool.retry.attempt',
  retryMaxRetries: 'pydantic_ai.tool.retry.max_retries',
  /** On a model call: Pydantic AI's own dump of the request's parameters, each tool with its `kind`. */
  modelRequestParameters: 'model_request_parameters',
} as const;

/** True for a span Pydantic AI's instrumentation recorded. */
export function isPydanticAiSpan(span: Span): boolean {
  return span.scope.name === PYDANTIC_AI_SCOPE;
}
