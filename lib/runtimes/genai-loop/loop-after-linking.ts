/**
 * What linking shows a GenAI-loop framework's calls, once every answering call is tied to the
 * call it answers (lib/graph/link-resumes.ts): first the framework's own facts
 * (`LoopFlavor.afterLinking`: a pause only the answer reveals, which pause an answer named by
 * id), then one rule for all: an answer to a call that did not pause is no answer — it is the
 * paused run's own result, carried in the history (ADK resends every result of the paused
 * turn) — and is dropped from the answering call and from the call.
 */
import type { GenerateCall, ToolCall } from '../../loop/loop-model';
import type { LoopFlavor } from './loop-flavor';

/** Every tool call of the calls, by graph node id. */
export function toolCallsById(generates: readonly GenerateCall[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const generate of generates) {
    for (const call of generate.resumeToolCalls) calls.set(call.id, call);
    for (const turn of generate.turns) for (const call of turn.toolCalls) calls.set(call.id, call);
  }
  return calls;
}

/** Runs the flavor's after-linking, then drops its calls' answers to calls that did not pause. */
export function loopAfterLinking(flavor: LoopFlavor, generates: readonly GenerateCall[]): void {
  const own = generates.filter((generate) => generate.runtime === flavor.id);
  if (own.length === 0) return;
  flavor.afterLinking?.(generates);
  const calls = toolCallsById(generates);
  for (const generate of own) {
    if (!generate.resume) continue;
    generate.resume.resolutions = generate.resume.resolutions.filter((resolution) => {
      const call = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId);
      if (!call || call.status === 'interrupted' || call.parked) return true;
      call.resolvedBy = call.resolvedBy.filter((answer) => answer.nodeId !== resolution.id);
      return false;
    });
  }
}
