/**
 * The answers an ADK run gives the pauses of the run it continues (docs/guides/google-adk.md).
 * ADK records the answering run as a new trace of the same session and invocation: a confirmed
 * call's tool span runs before the first model call with the paused call's id (→ restart); a
 * refused one's span records ADK's rejection instead of a result (→ respond, denied: the tool did
 * not run); a long-running call's final result reaches the model only in its history, as the
 * call's `tool_call_response` (→ respond, the caller's result). A `request_confirmation` pause
 * shows only here: its tool runs again (adk-after-linking.ts names it once linked).
 */
import type { Resolution } from '../../../loop/loop-model';
import { toolCallParts } from '../../otel-genai/read/genai-messages';
import { resolutionId } from '../../genai-loop/loop-answers';
import type { AnswerEvidence } from '../../genai-loop/loop-flavor';
import type { OfferedTool } from '../../otel-genai/read/genai-tool-definitions';
import { ADK_RESOLUTIONS, ADK_STATES, LONG_RUNNING_NOTE } from './adk-words';

/** A tool ADK offered as long-running: its description carries ADK's note. */
export function isLongRunningTool(tool: OfferedTool | undefined): boolean {
  return tool?.description?.includes(LONG_RUNNING_NOTE) === true;
}

/** The answers of an ADK run, or undefined when it answers no pause. */
export function readAdkAnswers(evidence: AnswerEvidence): Resolution[] | undefined {
  const { answered } = evidence;
  const asked = new Map((answered ? toolCallParts(answered.assistant) : []).flatMap((part) => (part.id !== undefined ? [[part.id, part] as const] : [])));
  const resolutions: Resolution[] = [];
  const ranAgain = new Set<string>();
  for (const ran of evidence.resumeToolCalls) {
    if (ran.ref === undefined) continue;
    ranAgain.add(ran.ref);
    const part = asked.get(ran.ref);
    const request = { name: part?.name ?? ran.name, ref: ran.ref, input: part?.arguments ?? ran.input };
    const rejected = ran.runtimeState?.code === ADK_STATES.rejected.code;
    resolutions.push({
      id: resolutionId(evidence.generateId, request),
      kind: rejected ? 'respond' : 'restart',
      request,
      ...(rejected ? { output: ran.output } : {}),
      restartedToolCallId: ran.id,
      words: rejected ? ADK_RESOLUTIONS.rejected : ADK_RESOLUTIONS.confirmed,
    });
  }
  // A long-running call's result, sent by the caller: in the history only, replacing the interim one.
  for (const [callId, part] of asked) {
    if (ranAgain.has(callId) || !answered?.responses.has(callId) || !isLongRunningTool(evidence.tools?.get(part.name ?? ''))) continue;
    const request = { name: part.name ?? 'unknown tool', ref: callId, input: part.arguments };
    resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'respond', request, output: answered.responses.get(callId), words: ADK_RESOLUTIONS.longRunningResult });
  }
  return resolutions.length > 0 ? resolutions : undefined;
}
