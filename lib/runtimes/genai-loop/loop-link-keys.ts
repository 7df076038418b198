/**
 * What ties a paused GenAI-loop call to the call that answers it (lib/graph/match-resumes.ts
 * decides with these, the same rule for every runtime): the frameworks record the two as
 * separate traces with no OTel link. The requests part of the key is the framework's own thread
 * between them when it has one (`LoopFlavor.linkScope`: ADK's invocation id, LangGraph's thread
 * id), else the tool call ids of the paused model answer (as the AI SDK's); the history part is
 * the conversation up to that answer.
 */
import type { Span } from '../../spans/span';
import { interruptedGenerateKey, resumeGenerateKey, type InterruptedGenerateKey, type ResumeGenerateKey } from '../../spans/trace-link-keys';
import type { GenerateCall } from '../../loop/loop-model';
import { genAiConversationKey } from '../otel-genai/read/genai-conversation-key';
import type { GenAiMessage } from '../otel-genai/read/genai-messages';

/** Tool call ids as one order-free key (prefixed: never equal to a genkit requests key). */
export function toolCallIdsKey(ids: readonly string[]): string {
  return ids
    .map((id) => `tool-call-id:${id}`)
    .sort()
    .join('\n');
}

/**
 * The key of a paused call (`silent`: its spans do not show the pause; only an answer would).
 * `pausedStep`: the model call that asked for the paused tools, its input and answer; `scope`: the flavor's link scope.
 */
export function loopInterruptedKey(options: { call: GenerateCall; root: Span; scope?: string; pausedStep?: { ids: readonly string[]; messages: readonly GenAiMessage[] }; silent?: boolean }): InterruptedGenerateKey | undefined {
  const { call, root, scope, pausedStep } = options;
  const requests = scope ?? (pausedStep && pausedStep.ids.length > 0 ? toolCallIdsKey(pausedStep.ids) : undefined);
  if (requests === undefined) return undefined;
  return interruptedGenerateKey({ call, root, requests, history: pausedStep ? genAiConversationKey(pausedStep.messages) : undefined, silent: options.silent });
}

/** The key of an answering call: `answered` is its history up to the answered assistant message and that message's tool call ids. */
export function loopResumeKey(options: { call: GenerateCall; root: Span; scope?: string; answered?: { ids: readonly string[]; history: readonly GenAiMessage[] } }): ResumeGenerateKey | undefined {
  const { call, root, scope, answered } = options;
  const requests = scope ?? (answered && answered.ids.length > 0 ? toolCallIdsKey(answered.ids) : undefined);
  if (requests === undefined) return undefined;
  return resumeGenerateKey({ call, root, requests, history: answered ? genAiConversationKey(answered.history) : undefined });
}
