/**
 * The AI SDK's `ModelMessage[]` rebuilt from GenAI messages (`gen_ai.input.messages` of an
 * `invoke_agent` span), for a replay that must send a call the history it was given when the
 * call before it is not in the recording. `@ai-sdk/otel` writes the SDK's messages in the
 * conventions' parts and drops what they have no field for: a user text becomes a `text` part
 * either way, and the approval parts are recorded bare (no ids, no `approved` flag). What the
 * spans do not hold comes from the recording's other evidence: which calls asked for an approval
 * and how each was answered (`approvalOf`), and made-up approval ids that pair a request with its
 * response (the SDK matches them by id; it never shows them to the model).
 */
import { isObject } from '../../trace/json-value';
import type { GenAiMessage, GenAiPart } from '../otel-genai/genai-messages';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART } from './sdk-words';

/** How a recorded approval was answered, by tool call id: `undefined` when nothing says. */
export type ApprovalOf = (toolCallId: string) => { asked: boolean; approved?: boolean; reason?: string };

/** The approval id the rebuilt messages give the request of tool call `toolCallId`. */
export const rebuiltApprovalId = (toolCallId: string) => `approval-${toolCallId}`;

function toolResultOutput(response: unknown): Record<string, unknown> {
  if (isObject(response) && response.denied === true) return { type: 'execution-denied', ...(typeof response.reason === 'string' ? { reason: response.reason } : {}) };
  return typeof response === 'string' ? { type: 'text', value: response } : { type: 'json', value: response ?? null };
}

/**
 * The tool calls of an assistant message its bare approval requests belong to, in call order:
 * those the recording says asked, then — when the message holds more requests than that (a
 * policy decided the others, in a call not recorded) — the next calls in order.
 */
function askingCalls(message: GenAiMessage, approvalOf: ApprovalOf): string[] {
  const calls = message.parts.filter((part) => part.type === 'tool_call' && part.id !== undefined).map((part) => part.id!);
  const bare = message.parts.filter((part) => part.type === APPROVAL_REQUEST_PART && part.id === undefined).length;
  const chosen = new Set(calls.filter((id) => approvalOf(id).asked));
  for (const id of calls) {
    if (chosen.size >= bare) break;
    chosen.add(id);
  }
  return calls.filter((id) => chosen.has(id));
}

function assistantContent({ message, asking }: { message: GenAiMessage; asking: string[] }): Record<string, unknown>[] {
  const content: Record<string, unknown>[] = [];
  const unpaired = [...asking];
  for (const part of message.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.content ?? '' });
    else if (part.type === 'reasoning') content.push({ type: 'reasoning', text: part.content ?? '' });
    else if (part.type === 'tool_call') content.push({ type: 'tool-call', toolCallId: part.id ?? '', toolName: part.name ?? '', input: part.arguments ?? {} });
    else if (part.type === APPROVAL_REQUEST_PART) {
      const toolCallId = part.id ?? unpaired.shift();
      if (toolCallId !== undefined) content.push({ type: APPROVAL_REQUEST_PART, approvalId: rebuiltApprovalId(toolCallId), toolCallId });
    }
  }
  return content;
}

function toolContent({ messages, at, approvalOf, names, asking }: { messages: readonly GenAiMessage[]; at: number; approvalOf: ApprovalOf; names: Map<string, string>; asking: Map<number, string[]> }): Record<string, unknown>[] {
  // Bare responses answer, in order, the requests of the last assistant message before them.
  const assistantAt = messages.slice(0, at).findLastIndex((message) => message.role === 'assistant');
  const pending = [...(asking.get(assistantAt) ?? [])];
  // Responses already given in earlier tool messages of the same answer are not given again.
  for (const earlier of messages.slice(assistantAt + 1, at)) {
    if (earlier.role !== 'tool') continue;
    for (const part of earlier.parts) if (part.type === APPROVAL_RESPONSE_PART) pending.shift();
  }
  return messages[at].parts.flatMap((part: GenAiPart): Record<string, unknown>[] => {
    if (part.type === 'tool_call_response') return [{ type: 'tool-result', toolCallId: part.id ?? '', toolName: names.get(part.id ?? '') ?? '', output: toolResultOutput(part.response) }];
    if (part.type !== APPROVAL_RESPONSE_PART) return [];
    const toolCallId = part.id ?? pending.shift();
    if (toolCallId === undefined) return [];
    const { approved, reason } = approvalOf(toolCallId);
    return [{ type: APPROVAL_RESPONSE_PART, approvalId: rebuiltApprovalId(toolCallId), approved: approved ?? true, ...(reason !== undefined ? { reason } : {}) }];
  });
}

/**
 * GenAI messages as `ModelMessage`s: user and system texts as strings when they are one text
 * part (as a prompt is given), tool calls with their input, results as `json` or `text` outputs
 * (a denial as `execution-denied`), approval parts with ids made up to pair them.
 */
export function modelMessagesOf(messages: readonly GenAiMessage[], approvalOf: ApprovalOf): Record<string, unknown>[] {
  const names = new Map<string, string>();
  for (const message of messages) for (const part of message.parts) if (part.type === 'tool_call' && part.id !== undefined) names.set(part.id, part.name ?? '');
  const asking = new Map<number, string[]>();
  messages.forEach((message, at) => {
    if (message.role === 'assistant') asking.set(at, askingCalls(message, approvalOf));
  });
  return messages.map((message, at) => {
    if (message.role === 'assistant') return { role: 'assistant', content: assistantContent({ message, asking: asking.get(at) ?? [] }) };
    if (message.role === 'tool') return { role: 'tool', content: toolContent({ messages, at, approvalOf, names, asking }) };
    const texts = message.parts.filter((part) => part.type === 'text');
    const text = texts.map((part) => part.content ?? '').join('');
    if (message.role === 'system') return { role: 'system', content: text };
    return { role: message.role, content: texts.length === 1 && texts.length === message.parts.length ? text : texts.map((part) => ({ type: 'text', text: part.content ?? '' })) };
  });
}
