/**
 * How an answering AI SDK call resolved the calls its history stopped at. The caller answers by
 * calling again with the history plus a `role:"tool"` message (docs/interrupt-model.md, "Vercel
 * AI SDK v7"): the history then ends with the assistant message that asked for the tools,
 * followed only by tool messages. Each tool call of that message was, by the evidence in order:
 * - run now (an execute tool span with its id before the first step: approved) → `restart`;
 * - approved with no tool span (the legacy spans record none: the recorded approval says so) → `restart`;
 * - denied (the recorded approval says so, or the first model call was sent `{denied: true}`) → `respond`;
 * - answered by a tool result in the last tool message (a handed-back tool answered by the caller) → `respond`;
 * - answered in an earlier tool message: the paused call's own result (a sibling that ran there, an
 *   approval by policy) — no answer, no resolution;
 * - otherwise left unanswered (the answering call failed first: a forged signed approval).
 * The caller appends its answers as the last tool message after the paused call's own messages
 * (`responseMessages`, every step's); answers merged into the paused call's tool message read as its own.
 * GenAI messages record the approval parts bare (no ids, no approved flag): there, the tool span
 * and the result the model is sent are the evidence.
 */
import type { Resolution, ToolCall } from '../../../loop/loop-model';
import { requestLabel } from '../../../loop/loop-model';
import { toolCallParts, toolResponsesById, type GenAiMessage } from '../../otel-genai/read/genai-messages';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART, denialOf, RESOLUTION_WORDS } from './sdk-words';

export interface AiSdkResume {
  resolutions: Resolution[];
  /** The history the answered call left: up to and including the assistant message that asked for the tools. */
  history: GenAiMessage[];
  /** The tool call ids of that message: what ties the answer to the paused call. */
  requestIds: string[];
}

function recordedApprovals(assistant: GenAiMessage, answers: readonly GenAiMessage[]): Map<string, { approved?: boolean; reason?: string }> {
  const approvalOfCall = new Map<string, string>();
  for (const part of assistant.parts) {
    const approvalId = part.extra?.approvalId;
    if (part.type === APPROVAL_REQUEST_PART && part.id !== undefined && typeof approvalId === 'string') approvalOfCall.set(approvalId, part.id);
  }
  const byCall = new Map<string, { approved?: boolean; reason?: string }>();
  for (const part of answers.flatMap((message) => message.parts)) {
    const approvalId = part.extra?.approvalId;
    const callId = typeof approvalId === 'string' ? approvalOfCall.get(approvalId) : undefined;
    if (part.type !== APPROVAL_RESPONSE_PART || callId === undefined) continue;
    const { approved, reason } = part.extra ?? {};
    byCall.set(callId, { ...(typeof approved === 'boolean' ? { approved } : {}), ...(typeof reason === 'string' ? { reason } : {}) });
  }
  return byCall;
}

function unresolvedWords(failedWith: string | undefined, asksApproval: boolean): string {
  if (failedWith === undefined) return RESOLUTION_WORDS.unanswered;
  return asksApproval ? RESOLUTION_WORDS.approvalFailed(failedWith) : RESOLUTION_WORDS.callFailed(failedWith);
}

/** The resolutions of an answering call, or undefined when its history does not end at tool calls it answers. */
export function readAiSdkResolutions(options: {
  generateId: string;
  input: readonly GenAiMessage[];
  firstModelInput: readonly GenAiMessage[];
  resumeToolCalls: readonly ToolCall[];
  /** The answering call's error type, when it failed (before running anything: a refused signature). */
  failedWith?: string;
}): AiSdkResume | undefined {
  const { input } = options;
  const last = input.findLastIndex((message) => message.role === 'assistant');
  const answers = input.slice(last + 1);
  if (last < 0 || answers.length === 0 || answers.some((message) => message.role !== 'tool')) return undefined;
  const calls = toolCallParts(input[last]).filter((part) => part.id !== undefined);
  if (calls.length === 0) return undefined;
  const answered = toolResponsesById(answers);
  const byCaller = toolResponsesById(answers.slice(-1));
  const sentToModel = toolResponsesById(options.firstModelInput);
  const approvals = recordedApprovals(input[last], answers);
  const unusedRuns = [...options.resumeToolCalls];
  const asksApproval = input[last].parts.some((part) => part.type === APPROVAL_REQUEST_PART);

  const resolutions = calls.flatMap((part): Resolution[] => {
    const callId = part.id as string;
    const request = { name: part.name ?? 'unknown tool', ref: callId, input: part.arguments };
    const id = `${options.generateId}:resume:${requestLabel(request)}`;
    const ranAt = unusedRuns.findIndex((call) => call.ref === callId);
    if (ranAt >= 0) {
      const ran = unusedRuns.splice(ranAt, 1)[0];
      return [{ id, kind: 'restart', request, resumed: { approved: true }, restartedToolCallId: ran.id, words: RESOLUTION_WORDS.approved }];
    }
    const approval = approvals.get(callId);
    if (approval?.approved === true) return [{ id, kind: 'restart', request, resumed: { approved: true }, words: RESOLUTION_WORDS.approvedNoSpan }];
    const denial = approval?.approved === false ? { reason: approval.reason } : answered.has(callId) ? undefined : denialOf(sentToModel.get(callId));
    if (denial) return [{ id, kind: 'respond', request, output: sentToModel.get(callId) ?? { denied: true, ...denial }, words: RESOLUTION_WORDS.denied(denial.reason) }];
    if (byCaller.has(callId)) return [{ id, kind: 'respond', request, output: byCaller.get(callId), words: RESOLUTION_WORDS.callerResult }];
    if (answered.has(callId)) return [];
    if (sentToModel.has(callId)) return [{ id, kind: 'respond', request, output: sentToModel.get(callId), words: RESOLUTION_WORDS.sentToModel }];
    return [{ id, kind: 'unresolved', request, words: unresolvedWords(options.failedWith, asksApproval) }];
  });
  return { resolutions, history: input.slice(0, last + 1), requestIds: calls.map((part) => part.id as string) };
}
