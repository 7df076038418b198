/**
 * The OpenAI Agents SDK's messages as one conversation in the conventions' shape. The
 * instrumentation records the Responses API's items one message each (docs/guides/openai-agents.md,
 * "What its spans record"): one `assistant` message per tool call, one `tool` message per result —
 * read here as one assistant message with all its calls (what the reader answers and links by) —
 * and in a history it names a past call by its Responses **item** id (`fc_…`) while its result
 * names the **call** id (`call_…`), the id the model's answer and the SDK's approvals use. A past
 * call's item id is read as the call id of its result: the calls and the results after them
 * are taken in order (a result that already names a call's own id keeps it). Nothing else in a
 * history ties the two ids; linking checks them against the paused run (openai-agents-answers.ts).
 */
import type { Span } from '../../../spans/span';
import { genAiMessagesOf } from '../../genai-loop/genai-span-reading';
import type { LoopMessages } from '../../genai-loop/loop-flavor';
import { isToolResponseMessage, type GenAiMessage, type ReadMessages } from '../../otel-genai/read/genai-messages';

/** Consecutive assistant messages as one (the Responses API's output items of one model answer). */
function mergeAssistantTurns(messages: readonly GenAiMessage[]): GenAiMessage[] {
  const merged: GenAiMessage[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (last && last.role === 'assistant' && message.role === 'assistant') {
      merged[merged.length - 1] = { ...last, parts: [...last.parts, ...message.parts], ...(message.finishReason !== undefined ? { finishReason: message.finishReason } : {}) };
    } else merged.push({ ...message, parts: [...message.parts] });
  }
  return merged;
}

/** Each assistant message's tool calls named by the call ids of the results that follow it. */
function callIdsFromResults(messages: GenAiMessage[]): GenAiMessage[] {
  return messages.map((message, position) => {
    if (message.role !== 'assistant' || !message.parts.some((part) => part.type === 'tool_call')) return message;
    const results: string[] = [];
    for (let next = position + 1; next < messages.length && isToolResponseMessage(messages[next]); next += 1) {
      for (const part of messages[next].parts) if (part.type === 'tool_call_response' && part.id !== undefined) results.push(part.id);
    }
    const callIds = new Set(message.parts.flatMap((part) => (part.type === 'tool_call' && part.id !== undefined ? [part.id] : [])));
    // Results that name no call of this message, in order, for the calls whose id no result names.
    const unclaimed = results.filter((id) => !callIds.has(id));
    const resultIds = new Set(results);
    return {
      ...message,
      parts: message.parts.map((part) => {
        if (part.type !== 'tool_call' || (part.id !== undefined && resultIds.has(part.id)) || unclaimed.length === 0) return part;
        const callId = unclaimed.shift() as string;
        return { ...part, id: callId, extra: { ...part.extra, itemId: part.id } };
      }),
    };
  });
}

/** A recorded list of messages as one conversation: assistant turns merged, past calls named by their call ids. */
export function agentsConversation(read: ReadMessages): ReadMessages {
  return { ...read, messages: callIdsFromResults(mergeAssistantTurns(read.messages)) };
}

/** The messages of an OpenAI Agents model call (the agent span records none: the reader takes its first model call's). */
export function agentsMessagesOf(span: Span): LoopMessages {
  const view = genAiMessagesOf(span);
  return { ...view, input: agentsConversation(view.input), output: agentsConversation(view.output) };
}
