/**
 * Messages as the OTel GenAI conventions record them (`gen_ai.input.messages`,
 * `gen_ai.output.messages`: JSON strings of `{role, parts: [...], finish_reason?}` with parts
 * `text{content}`, `tool_call{id, name, arguments}`, `tool_call_response{id, response}`), read
 * tolerantly: a malformed attribute gives no messages and a problem in words, never a throw.
 * Parts of other types are kept with their type (a runtime may add its own: the AI SDK's bare
 * `tool-approval-request`).
 */
import { isObject } from '../../../spans/json-value';
import { parseJsonAttribute } from '../../../spans/parse-json-attribute';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue } from '../../../spans/span';

export interface GenAiPart {
  type: string;
  /** `text`: the text. */
  content?: string;
  /** `tool_call` / `tool_call_response`: the tool call id. */
  id?: string;
  /** `tool_call`: the tool's name. */
  name?: string;
  /** `tool_call`: the input. */
  arguments?: unknown;
  /** `tool_call_response`: what the model was given as the call's result. */
  response?: unknown;
  /** Anything else the part carried (a runtime's own fields). */
  extra?: Record<string, unknown>;
}

export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finishReason?: string;
}

export interface ReadMessages {
  messages: GenAiMessage[];
  /** Why the attribute could not be read as messages (absent attribute: no problem, no messages). */
  problem?: string;
}

const KNOWN = new Set(['type', 'content', 'id', 'name', 'arguments', 'response']);

/** Arguments may be recorded as an object or as the JSON text the model wrote. */
function readArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parsed = tryParseJsonLimited(value);
  return parsed.ok ? parsed.value : value;
}

function readPart(value: unknown): GenAiPart | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const part: GenAiPart = { type: value.type };
  if (typeof value.content === 'string') part.content = value.content;
  if (typeof value.id === 'string') part.id = value.id;
  if (typeof value.name === 'string') part.name = value.name;
  if ('arguments' in value) part.arguments = readArguments(value.arguments);
  if ('response' in value) part.response = value.response;
  const extra = Object.entries(value).filter(([key]) => !KNOWN.has(key));
  if (extra.length > 0) part.extra = Object.fromEntries(extra);
  return part;
}

/** One message object (already parsed) in the conventions' shape, or undefined when it is not one. */
export function readGenAiMessage(value: unknown): GenAiMessage | undefined {
  if (!isObject(value) || typeof value.role !== 'string') return undefined;
  const parts = Array.isArray(value.parts) ? value.parts.map(readPart).filter((part): part is GenAiPart => part !== undefined) : [];
  return { role: value.role, parts, ...(typeof value.finish_reason === 'string' ? { finishReason: value.finish_reason } : {}) };
}

/** The messages of a `gen_ai.*.messages` attribute. */
export function readGenAiMessages(value: AttributeValue | undefined): ReadMessages {
  if (value === undefined) return { messages: [] };
  const parsed = parseJsonAttribute(value);
  if (!parsed.ok) return { messages: [], problem: `the recorded messages are not JSON (${parsed.error})` };
  if (!Array.isArray(parsed.value)) return { messages: [], problem: 'the recorded messages are not a list' };
  const messages = parsed.value.map(readGenAiMessage).filter((message): message is GenAiMessage => message !== undefined);
  return messages.length < parsed.value.length ? { messages, problem: `${parsed.value.length - messages.length} recorded message(s) have no role` } : { messages };
}

/** The tool calls a message asks for. */
export function toolCallParts(message: GenAiMessage | undefined): GenAiPart[] {
  return message?.parts.filter((part) => part.type === 'tool_call') ?? [];
}

/** The tool call responses of some messages, by tool call id (the first one of each id). */
export function toolResponsesById(messages: readonly GenAiMessage[]): Map<string, unknown> {
  const responses = new Map<string, unknown>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool_call_response' && part.id !== undefined && !responses.has(part.id)) responses.set(part.id, part.response);
  }
  return responses;
}

/** The text parts of a message, joined; undefined when it has none. */
export function messageText(message: GenAiMessage | undefined): string | undefined {
  const texts = message?.parts.filter((part) => part.type === 'text' && part.content !== undefined).map((part) => part.content as string) ?? [];
  return texts.length > 0 ? texts.join('') : undefined;
}

/** The finish reasons the output messages carry (`finish_reason` of each), for exporters that record none on the span. */
export function finishReasonsOfMessages(messages: readonly GenAiMessage[]): string[] {
  return messages.flatMap((message) => (message.finishReason !== undefined ? [message.finishReason] : []));
}

/** A message that only carries tool results (role `tool`, or a `user` message of `tool_call_response` parts only: Google ADK's function responses). */
export function isToolResponseMessage(message: GenAiMessage): boolean {
  if (message.role === 'tool') return true;
  return message.parts.length > 0 && message.parts.every((part) => part.type === 'tool_call_response');
}
