/**
 * How a Mastra run answers the pause of the run before it (docs/guides/mastra.md). Mastra
 * records the answer itself as the answering run's input: `approveToolCall` →
 * `{approved: true, toolName, toolCallId}`, `declineToolCall` → `{approved: false, reason,
 * toolName, toolCallId}`, `resumeStream(data)` → the resume data plus `toolName`, `toolCallId`.
 * The answering run keeps the paused run's id (`mastra.metadata.runId`) and runs the answered
 * tool before its next model call. An approved call that ran, and a suspended tool resumed with
 * data that ran again, are restarts; a declined call (no tool span) is a respond. The run id and
 * the tool call id tie a pause to its answer (one run may answer one call and pause on another).
 */
import type { Span } from '../../../spans/span';
import { resolutionId } from '../../genai-loop/loop-answers';
import type { AnswerEvidence, LinkScopeParts } from '../../genai-loop/loop-flavor';
import type { GenerateCall, Resolution } from '../../../loop/loop-model';
import { MASTRA, recordedObject } from './mastra-spans';
import { suspensionOf } from './mastra-pauses';

/** The answer an answering run was given, from its input; undefined when its input is a prompt. */
export function answerOf(run: Span): { toolCallId: string; toolName?: string; approved?: boolean; reason?: string; resumeData?: Record<string, unknown> } | undefined {
  const input = recordedObject(run.attributes[MASTRA.runInput]);
  if (!input || typeof input.toolCallId !== 'string') return undefined;
  const { toolCallId, toolName, approved, reason, ...rest } = input;
  const base = { toolCallId, ...(typeof toolName === 'string' ? { toolName } : {}) };
  if (typeof approved === 'boolean' && Object.keys(rest).length === 0) return { ...base, approved, ...(typeof reason === 'string' ? { reason } : {}) };
  // resumeStream's data: everything but the call it names (an `approved` among other keys is data too).
  return { ...base, resumeData: { ...(approved !== undefined ? { approved } : {}), ...(reason !== undefined ? { reason } : {}), ...rest } };
}

const NO_SPAN = 'the tool did not run (no execute_tool span)';

/** The answer a run gives, by the evidence: the answered tool ran in it (restart) or not (respond). */
export function readMastraAnswers(evidence: AnswerEvidence): Resolution[] | undefined {
  const answer = answerOf(evidence.root);
  if (!answer) return undefined;
  const ran = evidence.resumeToolCalls.find((call) => call.ref === answer.toolCallId && call.spanId !== undefined);
  const request = { name: answer.toolName ?? ran?.name ?? 'unknown tool', ref: answer.toolCallId, ...(ran?.input !== undefined ? { input: ran.input } : {}) };
  const id = resolutionId(evidence.generateId, request);
  if (answer.approved === false) {
    const reason = answer.reason !== undefined ? `: ${JSON.stringify(answer.reason)}` : '';
    return [{ id, kind: 'respond', request, output: answer.reason ?? null, words: `declined (declineToolCall)${reason} — ${NO_SPAN}; the model is told it was declined` }];
  }
  if (answer.approved === true) {
    return [ran ? { id, kind: 'restart', request, restartedToolCallId: ran.id, words: 'approved (approveToolCall) — the tool ran' } : { id, kind: 'restart', request, words: 'approved (approveToolCall) — no tool span of its run arrived' }];
  }
  const data = JSON.stringify(answer.resumeData);
  return [
    ran
      ? { id, kind: 'restart', request, resumed: answer.resumeData, restartedToolCallId: ran.id, words: `resumed (resumeStream) with ${data} — the tool ran again` }
      : { id, kind: 'respond', request, output: answer.resumeData, words: `resumed (resumeStream) with ${data} — ${NO_SPAN}` },
  ];
}

/** What ties a pause to its answer: the run id and the call the run paused on; the run id and the call an answering run answers. */
export function mastraLinkScope(options: { root: Span }): LinkScopeParts | undefined {
  const runId = options.root.attributes[MASTRA.runId];
  if (typeof runId !== 'string') return undefined;
  const paused = suspensionOf(options.root)?.toolCallId;
  const answered = answerOf(options.root)?.toolCallId;
  return {
    ...(paused !== undefined ? { interrupted: `mastra-run:${runId}#${paused}` } : {}),
    ...(answered !== undefined ? { answering: `mastra-run:${runId}#${answered}` } : {}),
  };
}

/** A run that ended without a final answer says so in Mastra's words (its finish reason is Mastra's status). */
export function mastraAfterLinking(options: { generates: readonly GenerateCall[]; dialectId: string }): void {
  for (const generate of options.generates) {
    if (generate.runtime !== options.dialectId || generate.status !== 'ok') continue;
    if (generate.finishReason === 'aborted') generate.runtimeState = { code: 'aborted', words: 'aborted — the run was ended by its abort signal (Mastra: status aborted) before a final answer' };
  }
}
