/**
 * The Vercel AI SDK v7's own words in its spans and messages, beyond the OTel GenAI conventions
 * (docs/interrupt-model.md, "Vercel AI SDK v7"): its legacy span names, the parts it adds to the
 * recorded messages, how a denied call and a parse error reach the model, and what a
 * provider-executed tool looks like.
 */
import { isObject } from '../../../spans/json-value';
import type { RuntimeState } from '../../../loop/loop-model';

/** `LegacyOpenTelemetry`'s span names (also its `ai.operationId`): top-level calls, model calls, tool calls. */
export const LEGACY_CALLS: ReadonlySet<string> = new Set(['ai.generateText', 'ai.streamText']);
export const LEGACY_MODEL_CALLS: ReadonlySet<string> = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream']);
export const LEGACY_TOOL_CALLS: ReadonlySet<string> = new Set(['ai.toolCall']);

/** The instrumentation scopes of the SDK's default tracers: `@ai-sdk/otel`'s `OpenTelemetry` (`gen_ai`) and `LegacyOpenTelemetry` (`ai`). */
export const AI_SDK_SCOPES: readonly string[] = ['gen_ai', 'ai'];

/** Attributes only `@ai-sdk/otel` writes on spans (metric names as span attributes): its spans under another tracer still show them. */
export const AI_SDK_MARK_ATTRIBUTES: readonly string[] = ['gen_ai.client.operation.duration', 'gen_ai.execute_tool.duration'];

/** The parts the SDK adds to a message for an approval (recorded bare — no ids — in GenAI messages). */
export const APPROVAL_REQUEST_PART = 'tool-approval-request';
export const APPROVAL_RESPONSE_PART = 'tool-approval-response';

/** How the SDK refuses an answer whose approval signature does not verify (`experimental_toolApprovalSecret` was set). */
export const APPROVAL_SIGNATURE_FAILURE = /^Tool approval signature verification failed/;

/** The ids `generateText` makes up per run (`aitxt-` and 24 characters: approval ids, response ids): never the same twice, so never compared. */
export const GENERATED_ID = /aitxt-[A-Za-z0-9]{24}/g;

/** The `type` of a provider tool in the offered tool definitions (run by the provider, not the app). */
export const PROVIDER_TOOL_DEFINITION_TYPE = 'provider';

/** `gen_ai.tool.type` of a tool the provider ran (the SDK records a provider-executed tool as `extension`). */
export const PROVIDER_EXECUTED_TOOL_TYPE = 'extension';

/** A denied call's result as the model sees it: `{denied: true, reason?}`. */
export function denialOf(response: unknown): { reason?: string } | undefined {
  if (!isObject(response) || response.denied !== true) return undefined;
  return typeof response.reason === 'string' ? { reason: response.reason } : {};
}

/**
 * A tool call the SDK could not run, from the text the model got as its result:
 * `AI_NoSuchToolError: …`, `AI_InvalidToolInputError: …` (parseToolCall; the SDK's error
 * classes are named `AI_<Name>`). The code is the class name without `AI_`.
 */
export function parseErrorOf(response: unknown): { code: string; message: string } | undefined {
  if (typeof response !== 'string') return undefined;
  const match = /^AI_(NoSuchToolError|InvalidToolInputError|ToolCallRepairError|[A-Za-z]+Error):/.exec(response);
  return match ? { code: match[1], message: response } : undefined;
}

export const STATES = {
  providerExecuted: { code: 'provider-executed', words: 'ok — executed by the provider' },
  providerExecutedInferred: { code: 'provider-executed', words: 'ok — executed by the provider (no tool span; the model answered without stopping for it)' },
  providerTool: { code: 'provider-executed', words: 'ok — executed by the provider (offered as a provider tool; no result recorded)' },
  notOffered: { code: 'not-offered', words: 'never ran — not among the tools the model was offered' },
  toolError: { code: 'tool-error', words: 'tool-error — the model saw the error and went on' },
  repaired: { code: 'repaired', words: 'ok — input repaired before it ran (repairToolCall)' },
  stepLimit: { code: 'step-limit', words: 'ok — stopped at the step limit (stopWhen), tool results not yet seen by the model' },
  denied: (reason?: string): RuntimeState => ({ code: 'denied', words: reason ? `denied: ${reason}` : 'denied' }),
  parseError: (code: string): RuntimeState => ({ code, words: `${code} — the model saw the error and went on` }),
} as const;

/** How an answering call resolved a pending request, in the SDK's words. */
export const RESOLUTION_WORDS = {
  approved: 'approved — the tool ran',
  approvedNoSpan: 'approved — the tool ran (no tool span recorded)',
  denied: (reason?: string) => (reason ? `denied: ${reason} (the model sees the denial)` : 'denied (the model sees the denial)'),
  callerResult: 'answered by the caller (tool-result)',
  sentToModel: 'answered before the next model call (no tool span recorded)',
  unanswered: 'left unanswered by the next call',
  callFailed: (error: string) => `not run: the answering call failed first (${error})`,
  approvalFailed: (error: string) => `approval not applied: the answering call failed first (${error})`,
} as const;
