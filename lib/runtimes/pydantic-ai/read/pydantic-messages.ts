/**
 * A Pydantic AI span's messages in the OTel GenAI conventions' shape. Two things differ from the
 * conventions: a tool result's value is under `result`, not `response` (read as the response
 * here), and the agent run records no `gen_ai.input.messages` / `gen_ai.output.messages` — its
 * whole conversation is `pydantic_ai.all_messages`, and `pydantic_ai.new_message_index` says
 * where this run's messages start. The run's input is that conversation up to the first model
 * answer this run got (the history it was given, plus the tool results it added before calling
 * the model: an answering run's answers); its output is the rest.
 */
import type { Span } from '../../../spans/span';
import { genAiMessagesOf } from '../../genai-loop/genai-span-reading';
import type { LoopMessages } from '../../genai-loop/loop-flavor';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { readGenAiMessages, type GenAiMessage, type GenAiPart, type ReadMessages } from '../../otel-genai/read/genai-messages';
import { PYDANTIC_AI } from './pydantic-attributes';

/** A part with Pydantic AI's `result` read as the conventions' `response`. */
function conventionPart(part: GenAiPart): GenAiPart {
  if (part.type !== 'tool_call_response' || part.response !== undefined || !part.extra || !('result' in part.extra)) return part;
  const { result, ...extra } = part.extra;
  return { ...part, response: result, ...(Object.keys(extra).length > 0 ? { extra } : { extra: undefined }) };
}

/** Messages with every tool result's value under `response`. */
export function conventionMessages(read: ReadMessages): ReadMessages {
  return { ...read, messages: read.messages.map((message) => ({ ...message, parts: message.parts.map(conventionPart) })) };
}

/** Where this run's messages start in `all_messages` (0 for a run given no history). */
function newMessageIndex(span: Span): number {
  const value = span.attributes[PYDANTIC_AI.newMessageIndex];
  const index = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
  return Number.isInteger(index) && index >= 0 ? index : 0;
}

/**
 * An agent run's conversation split where this run's first model answer starts: `sent` is the
 * history it was given plus the tool results it added before calling the model (an answering
 * run's answers), `received` the rest. Unreadable: no messages and the problem in words.
 */
export function agentRunConversation(span: Span): { sent: ReadMessages; received: ReadMessages; all: GenAiMessage[] } {
  const read = conventionMessages(readGenAiMessages(span.attributes[PYDANTIC_AI.allMessages]));
  const start = newMessageIndex(span);
  let cut = read.messages.findIndex((message, position) => position >= start && message.role === 'assistant');
  if (cut < 0) cut = read.messages.length;
  return {
    sent: { messages: read.messages.slice(0, cut), ...(read.problem ? { problem: read.problem } : {}) },
    received: { messages: read.messages.slice(cut) },
    all: read.messages,
  };
}

/** The messages of a Pydantic AI agent run or model call. */
export function pydanticMessagesOf(span: Span): LoopMessages {
  if (span.attributes[GEN_AI.operation] === 'invoke_agent') {
    const { sent, received } = agentRunConversation(span);
    return { input: sent, output: received, finishReasons: [], model: stringAttribute(span.attributes[PYDANTIC_AI.modelName]) };
  }
  const view = genAiMessagesOf(span);
  return { ...view, input: conventionMessages(view.input), output: conventionMessages(view.output) };
}
