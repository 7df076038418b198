/**
 * `LegacyOpenTelemetry`'s spans (`ai.generateText` → `ai.generateText.doGenerate` → `ai.toolCall`,
 * and the same for `ai.streamText`), read into the GenAI conventions' messages so one reader
 * serves both: the SDK's model messages (`{role, content: string | parts}` with `tool-call`,
 * `tool-result`, `tool-approval-request`, `tool-approval-response` parts) become
 * `{role, parts}` with `text`, `tool_call`, `tool_call_response` and the approval parts (ids kept).
 */
import { isObject } from '../../../spans/json-value';
import { parseJsonAttribute } from '../../../spans/parse-json-attribute';
import type { AttributeValue, Span } from '../../../spans/span';
import type { GenAiMessage, GenAiPart, ReadMessages } from '../../otel-genai/read/genai-messages';
import { stringAttribute } from '../../otel-genai/read/genai-attributes';

export const LEGACY = {
  operationId: 'ai.operationId',
  functionId: 'ai.telemetry.functionId',
  modelId: 'ai.model.id',
  prompt: 'ai.prompt',
  promptMessages: 'ai.prompt.messages',
  tools: 'ai.prompt.tools',
  finishReason: 'ai.response.finishReason',
  text: 'ai.response.text',
  toolCalls: 'ai.response.toolCalls',
  toolName: 'ai.toolCall.name',
  toolCallId: 'ai.toolCall.id',
  toolArguments: 'ai.toolCall.args',
  toolResult: 'ai.toolCall.result',
} as const;

/** A legacy span's operation: its `ai.operationId`, else its name. */
export function legacyOperation(span: Span): string {
  return stringAttribute(span.attributes[LEGACY.operationId]) ?? span.name;
}

/** What a tool result part gave the model: the value, an error text, or `{denied, reason}` for a denial. */
function resultValue(output: unknown): unknown {
  if (!isObject(output)) return output;
  if (output.type === 'execution-denied') return { denied: true, ...(typeof output.reason === 'string' ? { reason: output.reason } : {}) };
  return 'value' in output ? output.value : output;
}

function legacyPart(part: unknown): GenAiPart | undefined {
  if (!isObject(part) || typeof part.type !== 'string') return undefined;
  const id = typeof part.toolCallId === 'string' ? part.toolCallId : undefined;
  switch (part.type) {
    case 'text':
      return { type: 'text', content: typeof part.text === 'string' ? part.text : '' };
    case 'tool-call':
      return { type: 'tool_call', id, name: typeof part.toolName === 'string' ? part.toolName : undefined, arguments: part.input ?? part.args };
    case 'tool-result':
      return { type: 'tool_call_response', id, response: resultValue(part.output ?? part.result) };
    default: {
      // The approval parts (and any other) keep their own fields: here they carry their ids.
      const { type, ...extra } = part;
      return { type, ...(id !== undefined ? { id } : {}), extra };
    }
  }
}

/** One SDK model message as a GenAI message. */
function legacyMessage(message: unknown): GenAiMessage | undefined {
  if (!isObject(message) || typeof message.role !== 'string') return undefined;
  const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
  return { role: message.role, parts: content.map(legacyPart).filter((part): part is GenAiPart => part !== undefined) };
}

function messagesOf(value: unknown, what: string): ReadMessages {
  if (!Array.isArray(value)) return { messages: [], problem: `${what} holds no message list` };
  return { messages: value.map(legacyMessage).filter((message): message is GenAiMessage => message !== undefined) };
}

function parsed(value: AttributeValue | undefined, what: string): { value?: unknown; problem?: string } {
  if (value === undefined) return {};
  const result = parseJsonAttribute(value);
  return result.ok ? { value: result.value } : { problem: `${what} is not JSON (${result.error})` };
}

/** A legacy top-level call's input: `ai.prompt` (`{system?, prompt?, messages?}`). */
export function legacyCallInput(span: Span): ReadMessages {
  const prompt = parsed(span.attributes[LEGACY.prompt], LEGACY.prompt);
  if (prompt.problem) return { messages: [], problem: prompt.problem };
  if (!isObject(prompt.value)) return { messages: [] };
  if (Array.isArray(prompt.value.messages)) return messagesOf(prompt.value.messages, LEGACY.prompt);
  return typeof prompt.value.prompt === 'string' ? { messages: [{ role: 'user', parts: [{ type: 'text', content: prompt.value.prompt }] }] } : { messages: [] };
}

/** A legacy model call's input: `ai.prompt.messages`. */
export function legacyModelInput(span: Span): ReadMessages {
  const messages = parsed(span.attributes[LEGACY.promptMessages], LEGACY.promptMessages);
  if (messages.problem) return { messages: [], problem: messages.problem };
  return messages.value === undefined ? { messages: [] } : messagesOf(messages.value, LEGACY.promptMessages);
}

/** A legacy call's or model call's answer: `ai.response.text` and `ai.response.toolCalls` as one assistant message. */
export function legacyOutput(span: Span): ReadMessages {
  const text = stringAttribute(span.attributes[LEGACY.text]);
  const calls = parsed(span.attributes[LEGACY.toolCalls], LEGACY.toolCalls);
  const parts: GenAiPart[] = [];
  if (text) parts.push({ type: 'text', content: text });
  for (const call of Array.isArray(calls.value) ? calls.value : []) {
    if (!isObject(call)) continue;
    parts.push({ type: 'tool_call', id: typeof call.toolCallId === 'string' ? call.toolCallId : undefined, name: typeof call.toolName === 'string' ? call.toolName : undefined, arguments: call.input ?? call.args });
  }
  if (parts.length === 0 && text === undefined && span.attributes[LEGACY.toolCalls] === undefined) return { messages: [], ...(calls.problem ? { problem: calls.problem } : {}) };
  return { messages: [{ role: 'assistant', parts }], ...(calls.problem ? { problem: calls.problem } : {}) };
}
