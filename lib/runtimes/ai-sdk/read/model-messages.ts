/**
 * Recorded messages back into the AI SDK's own `ModelMessage` form — what a next
 * `generateText({ messages })` is given. The GenAI conventions record messages as
 * `{role, parts}` (lib/runtimes/otel-genai/read/genai-messages.ts); this undoes that mapping the way
 * `@ai-sdk/otel` made it: `tool_call` → `tool-call`, `tool_call_response` → `tool-result` (a
 * recorded `{denied, reason}` → `execution-denied`, a parse error's text → `error-text`, text →
 * `text`, anything else → `json`). The SDK's approval parts come back only when the spans
 * recorded their ids (the legacy spans do); GenAI messages record them bare, and a bare part
 * cannot be sent again — it is left out, and said so. Plain JSON: no import of `ai` here.
 */
import type { GenAiMessage, GenAiPart } from '../../otel-genai/read/genai-messages';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART, denialOf, parseErrorOf } from './sdk-words';

/** One part of an AI SDK model message, as JSON. */
export type SdkPart = Record<string, unknown> & { type: string };
/** One AI SDK model message, as JSON (`{role, content}`). */
export interface SdkMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | SdkPart[];
}

export interface RebuiltMessages {
  messages: SdkMessage[];
  /** What could not be sent again as recorded, in words (bare approval parts, unknown roles). */
  dropped: string[];
}

/** A tool result's output as the model was given it, typed the way the SDK types it. */
export function toolResultOutput(response: unknown): Record<string, unknown> {
  const denial = denialOf(response);
  if (denial) return { type: 'execution-denied', ...(denial.reason !== undefined ? { reason: denial.reason } : {}) };
  if (parseErrorOf(response)) return { type: 'error-text', value: response };
  if (typeof response === 'string') return { type: 'text', value: response };
  return { type: 'json', value: response ?? null };
}

function approvalPart(part: GenAiPart): SdkPart | undefined {
  const extra = part.extra ?? {};
  if (typeof extra.approvalId !== 'string') return undefined;
  if (part.type === APPROVAL_REQUEST_PART) {
    const toolCallId = typeof extra.toolCallId === 'string' ? extra.toolCallId : part.id;
    if (toolCallId === undefined) return undefined;
    return { type: APPROVAL_REQUEST_PART, approvalId: extra.approvalId, toolCallId, ...(typeof extra.signature === 'string' ? { signature: extra.signature } : {}) };
  }
  if (typeof extra.approved !== 'boolean') return undefined;
  return { type: APPROVAL_RESPONSE_PART, approvalId: extra.approvalId, approved: extra.approved, ...(typeof extra.reason === 'string' ? { reason: extra.reason } : {}) };
}

const textOf = (message: GenAiMessage) =>
  message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.content ?? '')
    .join('');

/** The recorded messages as the SDK's model messages, in order. */
export function toModelMessages(recorded: readonly GenAiMessage[]): RebuiltMessages {
  const messages: SdkMessage[] = [];
  const dropped: string[] = [];
  const toolNames = new Map<string, string>();
  for (const message of recorded) {
    if (message.role === 'system') {
      messages.push({ role: 'system', content: textOf(message) });
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'tool') {
      dropped.push(`a message with role "${message.role}"`);
      continue;
    }
    const content: SdkPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') content.push({ type: 'text', text: part.content ?? '' });
      else if (part.type === 'tool_call' && message.role === 'assistant' && part.id !== undefined && part.name !== undefined) {
        toolNames.set(part.id, part.name);
        content.push({ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: part.arguments ?? {} });
      } else if (part.type === 'tool_call_response' && part.id !== undefined) {
        content.push({ type: 'tool-result', toolCallId: part.id, toolName: toolNames.get(part.id) ?? 'unknown', output: toolResultOutput(part.response) });
      } else if (part.type === APPROVAL_REQUEST_PART || part.type === APPROVAL_RESPONSE_PART) {
        const rebuilt = approvalPart(part);
        if (rebuilt) content.push(rebuilt);
        else dropped.push(`a ${part.type} part recorded without its approvalId`);
      } else dropped.push(`a "${part.type}" part of a ${message.role} message`);
    }
    // A message whose only parts were dropped says nothing the SDK could take.
    if (content.length > 0) messages.push({ role: message.role, content });
  }
  return { messages, dropped };
}
