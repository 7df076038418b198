/**
 * What an answering Pydantic AI run did with each paused call, in Pydantic AI's words, once
 * linking tied it to the call (only then is the kind of pause known). The answer itself
 * (`DeferredToolResults`) is recorded nowhere (docs/guides/pydantic-ai.md, "The answering run"):
 * a call whose tool span ran first in the answering run was approved (with new arguments when
 * the span's differ: `ToolApproved(override_args=…)`); a call with no tool span got its result
 * from the answer — a denial (`ToolDenied`) for an approval, the caller's result for a deferred
 * call (Pydantic AI drops the outcome: a denial, a result, `ToolFailed` and `ModelRetry` look the
 * same in the spans).
 */
import { sameJson } from '../../../spans/json-value';
import { toolCallsById } from '../../genai-loop/loop-after-linking';
import type { GenerateCall, Resolution, ToolCall } from '../../../loop/loop-model';

/** The words of each answer (restart / respond) to each kind of pause. */
export const ANSWER_WORDS = {
  approved: 'approved (DeferredToolResults.approvals) — the tool ran in the answering run',
  approvedWithArguments: 'approved with new arguments (ToolApproved(override_args)) — the tool ran with them',
  ranAgain: 'approved (DeferredToolResults.approvals) — the tool ran again and its result went to the model',
  denied: 'denied (ToolDenied) — the tool did not run: no tool span in the answering run',
  result: 'the caller’s result (DeferredToolResults.calls) — no tool span in the answering run',
} as const;

function wordsOf(options: { resolution: Resolution; call: ToolCall; ran?: ToolCall }): Pick<Resolution, 'words' | 'replacedInput'> {
  const { resolution, call, ran } = options;
  const approval = call.interrupt?.pausedAs?.startsWith('approval required') === true;
  if (resolution.kind === 'respond') return { words: approval ? ANSWER_WORDS.denied : ANSWER_WORDS.result };
  if (resolution.kind !== 'restart') return {};
  if (!approval) return { words: ANSWER_WORDS.ranAgain };
  // The approved call ran with other arguments than the model's: ToolApproved(override_args=…).
  if (ran?.input !== undefined && call.input !== undefined && !sameJson(ran.input, call.input)) return { words: ANSWER_WORDS.approvedWithArguments, replacedInput: ran.input };
  return { words: ANSWER_WORDS.approved };
}

/** Names each linked answer of the runtime's answering runs by the pause it answered. */
export function nameLinkedAnswers(options: { generates: readonly GenerateCall[]; runtime: string }): void {
  const calls = toolCallsById(options.generates);
  for (const generate of options.generates) {
    if (generate.runtime !== options.runtime || !generate.resume) continue;
    for (const resolution of generate.resume.resolutions) {
      const call = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId);
      if (!call || call.status !== 'interrupted') continue;
      const ran = resolution.restartedToolCallId === undefined ? undefined : calls.get(resolution.restartedToolCallId);
      Object.assign(resolution, wordsOf({ resolution, call, ran }));
    }
  }
}
