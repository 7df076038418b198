/**
 * What ties an AI SDK call that stopped for approvals or handed-back tools to the call that
 * answers it (lib/graph/match-resumes.ts decides with these): the SDK records the two as
 * separate traces with no OTel link, and the tool call id is the one thread between them
 * (docs/interrupt-model.md, "Vercel AI SDK v7"). The requests key is the ids of every tool call
 * of the paused model answer; the history key is the conversation up to that answer.
 */
import type { Span } from '../../../spans/span';
import { interruptedGenerateKey, resumeGenerateKey, type InterruptedGenerateKey, type ResumeGenerateKey } from '../../../spans/trace-link-keys';
import type { GenerateCall } from '../../../loop/loop-model';
import { genAiConversationKey } from '../../otel-genai/read/genai-conversation-key';
import type { GenAiMessage } from '../../otel-genai/read/genai-messages';

/** Tool call ids as one order-free key (prefixed: never equal to a genkit requests key). */
export function toolCallIdsKey(ids: readonly string[]): string {
  return ids
    .map((id) => `tool-call-id:${id}`)
    .sort()
    .join('\n');
}

/** The key of a call that stopped with pending calls, or undefined. `lastModelMessages`: the last model call's input and answer. */
export function aiSdkInterruptedKey(options: { call: GenerateCall; root: Span; lastModelMessages: readonly GenAiMessage[] }): InterruptedGenerateKey | undefined {
  const { call, root } = options;
  const lastTurn = call.turns.at(-1);
  if (call.status !== 'interrupted' || !lastTurn?.model) return undefined;
  const ids = lastTurn.model.toolRequests.flatMap((request) => (request.ref !== undefined ? [request.ref] : []));
  const history = genAiConversationKey(options.lastModelMessages);
  return interruptedGenerateKey({ call, root, requests: toolCallIdsKey(ids), history });
}

/** The key of a call that answers pending calls (`history`: its input up to the answered model message). */
export function aiSdkResumeKey(options: { call: GenerateCall; root: Span; history: readonly GenAiMessage[]; requestIds: readonly string[] }): ResumeGenerateKey {
  const { call, root } = options;
  return resumeGenerateKey({ call, root, requests: toolCallIdsKey(options.requestIds), history: genAiConversationKey(options.history) });
}
