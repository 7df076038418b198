/**
 * Strands Agents' own content shapes, read as the OTel GenAI conventions' messages. Strands'
 * tracer writes them when no GenAI opt-in is set (`OTEL_SEMCONV_STABILITY_OPT_IN` unset: the
 * "legacy" mode of docs/guides/strands.md): one span event per message — `gen_ai.system.message`,
 * `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message` with `content`, and
 * `gen_ai.choice` with `message` and `finish_reason` — whose content is Strands' list of content
 * blocks (`{"text"}`, `{"toolUse": {toolUseId, name, input}}`, `{"toolResult": {toolUseId,
 * status, content}}`). A tool result keeps its `status` here (the latest modes drop it).
 */
import { isObject } from '../../../spans/json-value';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue, Span } from '../../../spans/span';
import type { GenAiMessage, GenAiPart, ReadMessages } from '../../otel-genai/read/genai-messages';

/** The legacy message events, by the role their message has. */
const MESSAGE_EVENTS: Readonly<Record<string, string>> = {
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
/** The event of the system prompt (the conventions keep it apart from the messages; so does this reader). */
const SYSTEM_EVENT = 'gen_ai.system.message';
/** The event of a model's answer (on a chat or agent span) or a tool's result (on a tool span). */
export const CHOICE_EVENT = 'gen_ai.choice';
/** The legacy event a tool span records its call on (`content`: the input, `id`: the tool use id). */
export const TOOL_MESSAGE_EVENT = 'gen_ai.tool.message';

/** A recorded value parsed when it is JSON, else its text. */
export function parsedOrText(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value;
  const parsed = tryParseJsonLimited(value);
  return parsed.ok ? parsed.value : value;
}

/** One Strands content block as a conventions part (undefined for a block of no known kind). */
function partOf(block: unknown): GenAiPart | undefined {
  if (!isObject(block)) return undefined;
  if (typeof block.text === 'string') return { type: 'text', content: block.text };
  if (isObject(block.toolUse)) {
    const use = block.toolUse;
    return { type: 'tool_call', ...(typeof use.toolUseId === 'string' ? { id: use.toolUseId } : {}), ...(typeof use.name === 'string' ? { name: use.name } : {}), arguments: use.input };
  }
  if (isObject(block.toolResult)) {
    const result = block.toolResult;
    return {
      type: 'tool_call_response',
      ...(typeof result.toolUseId === 'string' ? { id: result.toolUseId } : {}),
      response: result.content,
      ...(typeof result.status === 'string' ? { extra: { status: result.status } } : {}),
    };
  }
  const [kind] = Object.keys(block);
  return kind === undefined ? undefined : { type: kind, extra: { [kind]: block[kind] } };
}

/** Strands content as recorded (a JSON list of blocks, or plain text as the agent span's answer records it) as conventions parts. */
export function strandsParts(recorded: AttributeValue | undefined): GenAiPart[] {
  const content = parsedOrText(recorded);
  if (Array.isArray(content)) return content.map(partOf).filter((part): part is GenAiPart => part !== undefined);
  return typeof recorded === 'string' ? [{ type: 'text', content: recorded }] : [];
}

/** Whether a span records its content in Strands' own per-message events (no GenAI opt-in). */
export function hasLegacyContent(span: Span): boolean {
  return span.events.some((event) => event.name in MESSAGE_EVENTS || event.name === SYSTEM_EVENT || event.name === CHOICE_EVENT);
}

/** A legacy span's messages: its message events in order as the input, its choice as the output, the choice's finish reason. */
export function legacyMessages(span: Span): { input: ReadMessages; output: ReadMessages; finishReasons: string[] } {
  const input: GenAiMessage[] = [];
  const output: GenAiMessage[] = [];
  const finishReasons: string[] = [];
  for (const event of span.events) {
    const role = MESSAGE_EVENTS[event.name];
    if (role !== undefined) input.push({ role, parts: strandsParts(event.attributes.content) });
    if (event.name !== CHOICE_EVENT) continue;
    const finishReason = event.attributes.finish_reason;
    // The agent span's answer is plain text (its final text, or the interrupts' Python repr), not JSON.
    output.push({ role: 'assistant', parts: strandsParts(event.attributes.message), ...(typeof finishReason === 'string' ? { finishReason } : {}) });
    if (typeof finishReason === 'string') finishReasons.push(finishReason);
  }
  return { input: { messages: input }, output: { messages: output }, finishReasons };
}
