/**
 * What linking shows of ADK runs: a `tool_context.request_confirmation` pause. The paused run's
 * spans do not show it — the tool ran, returned, and ADK called the model once more — but the
 * answering run (the same invocation, docs/guides/google-adk.md) runs the same tool call again
 * before its first model call. Once the two are tied, the call is drawn paused in ADK's words
 * and its run as paused.
 */
import type { GenerateCall } from '../../../loop/loop-model';
import { toolCallsById } from '../../genai-loop/loop-after-linking';
import { ADK_PAUSES, ADK_RESOLUTIONS } from './adk-words';
import { GOOGLE_ADK_DIALECT_ID } from './dialect-id';

export function adkAfterLinking(generates: readonly GenerateCall[]): void {
  const calls = toolCallsById(generates);
  const byId = new Map(generates.map((generate) => [generate.id, generate]));
  for (const answer of generates) {
    if (answer.runtime !== GOOGLE_ADK_DIALECT_ID || !answer.resume?.answersGenerateId) continue;
    const paused = byId.get(answer.resume.answersGenerateId);
    if (!paused) continue;
    for (const resolution of answer.resume.resolutions) {
      const call = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId);
      if (!call || call.status !== 'ok' || resolution.restartedToolCallId === undefined) continue;
      // The tool ran and returned, and the answering run ran the same call again: it had asked for a confirmation.
      call.status = 'interrupted';
      call.interrupt = { metadata: { resultAtThePause: call.output }, evidence: 'answer', pausedAs: ADK_PAUSES.requestConfirmation };
      resolution.words = ADK_RESOLUTIONS.ranAgain;
      if (paused.status === 'ok') paused.status = 'interrupted';
      paused.pendingInterrupts.push({ name: call.name, ...(call.ref !== undefined ? { ref: call.ref } : {}), input: call.input });
    }
  }
}
