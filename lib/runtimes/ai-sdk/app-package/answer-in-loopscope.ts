/**
 * The answer to a call that stopped for an approval (`needsApproval`) or for a handed-back tool (a
 * tool without `execute`), given by the developer in Loopscope's workbench:
 *
 * ```ts
 * for (;;) {
 *   const result = await generateText({ model, tools, messages });
 *   messages.push(...result.responseMessages);
 *   const answer = await answerInLoopscope(result); // [] when nothing waits
 *   if (answer.length === 0) break;
 *   messages.push(...answer);
 * }
 * ```
 *
 * The paused call is already a run on Loopscope's run page (its trace exported); this tells
 * Loopscope the app waits, and waits for the developer's approve / deny (with a reason the model
 * reads) / result — checked there by the AI SDK's rules against the app's own tools — then
 * returns the `tool` message to append: a `tool-approval-response` per approval (with the app's
 * own approval ids) and a `tool-result` per handed-back tool, built by the same code that builds
 * the runner's answers (lib/runtimes/ai-sdk/run/ai-sdk-answers.ts). The next call with those messages
 * goes on as the same run, its root span linked to the paused call.
 */
import type { GenerateTextResult, ModelMessage, ToolSet } from 'ai';
import { AiSdkAnswerWaitResponseSchema, type AiSdkAppAnswer } from '../../../contract/attach-ai-sdk';
import type { AiSdkScriptedResume } from '../../../contract/ai-sdk-scenario';
import { errorMessage } from '../../../errors';
import { answerMessages } from '../run/ai-sdk-answers';
import { pendingCalls } from '../run/pending-calls';
import { StepError } from '../../../runner/run-stepper';
import { installedTelemetry } from './loopscope-telemetry';

type Result = GenerateTextResult<ToolSet, never, never>;

/** What is read of a call's result (`generateText`'s; `streamText`'s fields are promises, awaited). */
export interface AnsweredResult {
  /** Every step's content (ai@7): the approval requests and tool calls that wait are the final step's. */
  content: Result['content'] | PromiseLike<Result['content']>;
  finishReason: Result['finishReason'] | PromiseLike<Result['finishReason']>;
  /** Every step's messages, after the tools an answer approved (the last assistant message holds the calls that wait); `response.messages` is the final step's alone. */
  responseMessages: readonly ModelMessage[] | PromiseLike<readonly ModelMessage[]>;
}

/** The app's failure to use an answer, as the workbench shows it. */
function problemOf(error: unknown): string {
  return errorMessage(error).slice(0, 2_000);
}

/**
 * Waits for the developer's answer to the calls `result` left waiting and returns the messages
 * to append after `result.responseMessages` (none when nothing waits).
 * @throws Error when `loopscopeTelemetry()` was not called, the call is not a Loopscope run, or the run was stopped.
 */
export async function answerInLoopscope(result: AnsweredResult): Promise<ModelMessage[]> {
  const [content, finishReason, responseMessages] = await Promise.all([result.content, result.finishReason, result.responseMessages]);
  const waiting = pendingCalls({ content, finishReason });
  if (waiting.length === 0) return [];
  const telemetry = installedTelemetry();
  if (!telemetry) throw new Error('answerInLoopscope needs loopscopeTelemetry() called once at startup (it tells Loopscope about every call).');
  const call = telemetry.calls.endedCallOf(waiting[0].toolCallId);
  if (!call) throw new Error(`answerInLoopscope: the call that left ${waiting[0].toolName}#${waiting[0].toolCallId} waiting is not one Loopscope saw (was it made with this process's telemetry, and no per-call telemetry.integrations?).`);
  // Before anything is awaited: the call's end, told in the background, says the app waits.
  call.appWaits = true;
  const run = await call.registered;
  if (!run) throw new Error(`answerInLoopscope: the call is not a Loopscope run (see the loopscope/ai-sdk line above: no credential, or Loopscope refused it), so nobody can answer it there.`);
  // Its end (and its spans) reached Loopscope first: the run is interrupted, its trace stored, when the workbench opens.
  await call.ended;
  const connection = telemetry.calls.connection;
  for (;;) {
    const waited = await connection.post({ op: 'answer', body: { runId: run.runId }, schema: AiSdkAnswerWaitResponseSchema, token: run.token });
    if ('stopped' in waited) throw new StepError(waited.stopped, 'CANCELLED');
    if ('waiting' in waited) continue;
    let message: ModelMessage | undefined;
    try {
      message = answerMessages({ messages: responseMessages, answers: waited.answer as AiSdkScriptedResume }).at(-1);
    } catch (error) {
      // The workbench is told; the developer answers again.
      await connection.post({ op: 'answer-ack', body: { runId: run.runId, problems: [problemOf(error)] }, schema: undefined, token: run.token });
      continue;
    }
    await connection.post({ op: 'answer-ack', body: { runId: run.runId, problems: [] }, schema: undefined, token: run.token });
    telemetry.calls.answered.note({ runId: run.runId, link: telemetry.calls.rootOf(call), ...answeredIds(waited.answer, waiting) });
    return message ? [message] : [];
  }
}

/** The approval ids and tool call ids the answer's `tool` message names (what the next call's messages are recognized by). */
function answeredIds(answer: AiSdkAppAnswer, waiting: ReturnType<typeof pendingCalls>): { approvalIds: Set<string>; toolCallIds: Set<string> } {
  const answered = new Set([...answer.approve, ...answer.deny, ...answer.respond].map((part) => part.toolCallId));
  const approvalIds = new Set(waiting.flatMap((pending) => (answered.has(pending.toolCallId) && pending.approvalId ? [pending.approvalId] : [])));
  return { approvalIds, toolCallIds: new Set(answer.respond.map((part) => part.toolCallId)) };
}
