import { ValueHash } from '../../../spans/value-hash';
import type { GenAiMessage } from './genai-messages';

/** The part types the conventions define: a runtime's own parts (the AI SDK's approval parts) are left out of a conversation's key. */
const CONVENTION_PARTS = new Set(['text', 'tool_call', 'tool_call_response']);

/**
 * A key for a whole conversation in the conventions' messages: role and the conventions' parts
 * of every message (type, text, tool call id, name, arguments, response), finish reasons and a
 * runtime's own parts left out — an answering call records the history with parts its paused
 * call never showed (the AI SDK's bare `tool-approval-request`). Undefined for no messages.
 */
export function genAiConversationKey(messages: readonly GenAiMessage[]): string | undefined {
  if (messages.length === 0) return undefined;
  const hash = new ValueHash();
  for (const message of messages) {
    hash.text('m');
    hash.value(message.role);
    for (const part of message.parts) {
      if (!CONVENTION_PARTS.has(part.type)) continue;
      hash.members({ type: part.type, content: part.content, id: part.id, name: part.name, arguments: part.arguments, response: part.response });
    }
  }
  return hash.digest();
}
