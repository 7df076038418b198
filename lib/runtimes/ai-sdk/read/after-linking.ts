/**
 * What an AI SDK pause shows only once its answer is tied to it (lib/graph/link-resumes.ts):
 * what it was waiting for — an approval (approved or denied) or a handed-back tool's result —
 * which the paused call alone cannot tell (its spans record neither: docs/interrupt-model.md),
 * and an answer whose history asks for the same tool call id with another input (the SDK
 * refuses a forged signed approval; an unsigned one would run the new input).
 */
import { canonicalJson, isObject } from '../../../spans/json-value';
import type { GenerateCall, Resolution, ToolCallById } from '../../../loop/loop-model';
import { requestLabel } from '../../../loop/loop-model';
import { AI_SDK_DIALECT_ID } from './dialect-id';
import { RESOLUTION_WORDS } from './sdk-words';

function waitedFor(resolution: Resolution): string | undefined {
  if (resolution.kind === 'restart' || resolution.words?.startsWith('denied') || resolution.words?.startsWith('approval')) return 'an approval';
  if (resolution.words === RESOLUTION_WORDS.callerResult) return 'the caller’s tool result (a tool without execute, handed back)';
  return undefined;
}

/** Names, on the paused call and the answer, what linking shows. Only AI SDK answers carry `words`: genkit's are left alone. */
export function aiSdkAfterLinking(generates: readonly GenerateCall[], toolCallById: ToolCallById): void {
  for (const generate of generates) {
    if (generate.runtime !== AI_SDK_DIALECT_ID) continue;
    for (const resolution of generate.resume?.resolutions ?? []) {
      if (resolution.words === undefined || resolution.answersToolCallId === undefined) continue;
      const call = toolCallById(resolution.answersToolCallId);
      if (!call) continue;
      const waited = waitedFor(resolution);
      if (waited && call.interrupt && isObject(call.interrupt.metadata)) call.interrupt.metadata = { ...call.interrupt.metadata, waitingFor: waited, evidence: 'the answer in a later call' };
      if (canonicalJson(call.input) !== canonicalJson(resolution.request.input)) {
        generate.notes.push(`The answer's history asks for ${requestLabel(resolution.request)} with input ${JSON.stringify(resolution.request.input)}, not the ${JSON.stringify(call.input)} the paused call asked for: the history was changed.`);
      }
    }
  }
}
