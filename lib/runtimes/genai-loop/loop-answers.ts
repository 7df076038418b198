/**
 * What an answering call of a GenAI-loop framework shows, and the answers it gives. A framework
 * continues a paused run with a new call (a new trace: ADK's `Runner.run_async` with function
 * responses, LangGraph's `Command(resume=…)`, the AI SDK's next `generateText`) that starts from
 * the paused history: its first model call's history ends with the assistant message that asked
 * for the tools and the tools' results after it, and the paused tools it runs again run before
 * that first model call. By default (`readLoopAnswers`) each tool call of that assistant message
 * is resolved by the evidence, in order: its tool span ran again in this call → restart; its
 * result reached the model with no tool span → respond. A framework reads its own answers where
 * it records more (LangGraph's resume map, ADK's rejection); answers to calls that did not pause
 * are dropped once linking shows it (loop-after-linking.ts).
 */
import { requestLabel, type Resolution, type ToolCall } from '../../loop/loop-model';
import { isToolResponseMessage, toolCallParts, toolResponsesById, type GenAiMessage } from '../otel-genai/read/genai-messages';
import type { AnswerEvidence, LoopWords } from './loop-flavor';

/** The assistant message with tool calls a history's trailing tool results answer, or undefined when the history does not end with tool results. */
export function answeredMessage(history: readonly GenAiMessage[]): AnswerEvidence['answered'] {
  let position = history.length - 1;
  while (position >= 0 && isToolResponseMessage(history[position])) position -= 1;
  if (position < 0 || position === history.length - 1) return undefined;
  const assistant = history[position];
  if (toolCallParts(assistant).length === 0) return undefined;
  return { assistant, position, responses: toolResponsesById(history.slice(position + 1)) };
}

/** A resolution's node id: unique per answering call and request. */
export function resolutionId(generateId: string, request: { name: string; ref?: string }): string {
  return `${generateId}:resume:${requestLabel(request)}`;
}

/** The default answers of a call (see the file's comment); undefined when it answers nothing. */
export function readLoopAnswers(evidence: AnswerEvidence, words: LoopWords): Resolution[] | undefined {
  const { answered } = evidence;
  if (!answered && evidence.resumeToolCalls.length === 0) return undefined;
  const unusedRuns: ToolCall[] = [...evidence.resumeToolCalls];
  const resolutions: Resolution[] = [];
  for (const part of answered ? toolCallParts(answered.assistant) : []) {
    if (part.id === undefined) continue;
    const request = { name: part.name ?? 'unknown tool', ref: part.id, input: part.arguments };
    const ranAt = unusedRuns.findIndex((call) => call.ref === part.id);
    if (ranAt >= 0) {
      const ran = unusedRuns.splice(ranAt, 1)[0];
      resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'restart', request, restartedToolCallId: ran.id, words: words.ranAgain });
    } else if (answered?.responses.has(part.id)) {
      resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'respond', request, output: answered.responses.get(part.id), words: words.answeredWithoutSpan });
    }
  }
  // Tools run again whose call the history does not show (no model call recorded it yet).
  for (const ran of unusedRuns) {
    if (ran.ref === undefined) continue;
    const request = { name: ran.name, ref: ran.ref, input: ran.input };
    resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'restart', request, restartedToolCallId: ran.id, words: words.ranAgain });
  }
  return resolutions.length > 0 ? resolutions : undefined;
}
