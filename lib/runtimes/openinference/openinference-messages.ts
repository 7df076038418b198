/**
 * An OpenInference LLM span's messages, flattened into attributes
 * (`llm.input_messages.<i>.message.role`, `.content`, `.contents.<j>.message_content.text`,
 * `.tool_calls.<j>.tool_call.id` / `.function.name` / `.function.arguments`, `.tool_call_id`),
 * read into the OTel GenAI conventions' messages (lib/runtimes/otel-genai/read/genai-messages.ts) so one
 * loop reader reads both: a tool call becomes a `tool_call` part, a tool message a
 * `tool_call_response` part, text a `text` part. Its tools (`llm.tools.<i>.tool.json_schema`) are
 * read as the conventions' tool definitions. Tolerant: what does not parse is kept as text.
 */
import { tryParseJsonLimited } from '../../spans/parse-json-limited';
import type { Span } from '../../spans/span';
import type { GenAiMessage, GenAiPart } from '../otel-genai/read/genai-messages';
import { offeredTools, type OfferedTool } from '../otel-genai/read/genai-tool-definitions';
import { OPENINFERENCE } from './openinference-attributes';

interface FlatMessage {
  role?: string;
  content?: string;
  name?: string;
  toolCallId?: string;
  texts: Map<number, string>;
  toolCalls: Map<number, { id?: string; name?: string; arguments?: string }>;
}

const MESSAGE_KEY = /^llm\.(input|output)_messages\.(\d+)\.message\.(.+)$/;
const TOOL_CALL_KEY = /^tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$/;
const CONTENT_KEY = /^contents\.(\d+)\.message_content\.text$/;

function argumentsOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const parsed = tryParseJsonLimited(text);
  return parsed.ok ? parsed.value : text;
}

function toMessage(flat: FlatMessage): GenAiMessage | undefined {
  if (flat.role === undefined) return undefined;
  const parts: GenAiPart[] = [];
  const text = flat.content ?? ([...flat.texts.entries()].sort(([a], [b]) => a - b).map(([, value]) => value).join('') || undefined);
  if (flat.toolCallId !== undefined) {
    parts.push({ type: 'tool_call_response', id: flat.toolCallId, response: text ?? '', ...(flat.name !== undefined ? { name: flat.name } : {}) });
  } else if (text !== undefined && text !== '') parts.push({ type: 'text', content: text });
  for (const [, call] of [...flat.toolCalls.entries()].sort(([a], [b]) => a - b)) {
    parts.push({ type: 'tool_call', ...(call.id !== undefined ? { id: call.id } : {}), ...(call.name !== undefined ? { name: call.name } : {}), arguments: argumentsOf(call.arguments) });
  }
  return { role: flat.role, parts };
}

/** The input and output messages of an OpenInference LLM span (one pass over its attributes). */
export function openInferenceMessages(span: Span): { input: GenAiMessage[]; output: GenAiMessage[] } {
  const sides = { input: new Map<number, FlatMessage>(), output: new Map<number, FlatMessage>() };
  for (const key in span.attributes) {
    if (!key.startsWith('llm.')) continue;
    const match = MESSAGE_KEY.exec(key);
    if (!match) continue;
    const value = span.attributes[key];
    if (typeof value !== 'string') continue;
    const messages = sides[match[1] as 'input' | 'output'];
    const position = Number(match[2]);
    let flat = messages.get(position);
    if (!flat) messages.set(position, (flat = { texts: new Map(), toolCalls: new Map() }));
    const field = match[3];
    if (field === 'role') flat.role = value;
    else if (field === 'content') flat.content = value;
    else if (field === 'name') flat.name = value;
    else if (field === 'tool_call_id') flat.toolCallId = value;
    else {
      const toolCall = TOOL_CALL_KEY.exec(field);
      if (toolCall) {
        const at = Number(toolCall[1]);
        const call = flat.toolCalls.get(at) ?? {};
        if (toolCall[2] === 'id') call.id = value;
        else if (toolCall[2] === 'function.name') call.name = value;
        else call.arguments = value;
        flat.toolCalls.set(at, call);
        continue;
      }
      const content = CONTENT_KEY.exec(field);
      if (content) flat.texts.set(Number(content[1]), value);
    }
  }
  const read = (messages: Map<number, FlatMessage>) =>
    [...messages.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, flat]) => toMessage(flat))
      .filter((message): message is GenAiMessage => message !== undefined);
  return { input: read(sides.input), output: read(sides.output) };
}

/** The tools an OpenInference LLM span was offered (`llm.tools.<i>.tool.json_schema`, each `{type, function: {name, …}}`), or undefined when none are recorded. */
export function openInferenceTools(span: Span): Map<string, OfferedTool> | undefined {
  const schemas: [number, string][] = [];
  for (const key in span.attributes) {
    if (!key.startsWith(`${OPENINFERENCE.tools}.`) || !key.endsWith('.tool.json_schema')) continue;
    const value = span.attributes[key];
    if (typeof value === 'string') schemas.push([Number(key.split('.')[2]), value]);
  }
  if (schemas.length === 0) return undefined;
  return offeredTools(schemas.sort(([a], [b]) => a - b).map(([, schema]) => schema));
}
