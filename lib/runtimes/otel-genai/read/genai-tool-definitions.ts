import { isObject } from '../../../spans/json-value';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue } from '../../../spans/span';

/** A tool as the model was offered it (`gen_ai.tool.definitions`): `function` (runs in the app), or a runtime's own type (the AI SDK's `provider`). */
export interface OfferedTool {
  name: string;
  type?: string;
  description?: string;
  /** The input's JSON schema as recorded (`inputSchema`; some exporters write `parameters`). */
  inputSchema?: unknown;
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const result = tryParseJsonLimited(value);
  return result.ok ? result.value : undefined;
}

/**
 * A definition in the chat-completions shape some exporters record (`{type: "function",
 * function: {name, description, parameters}}`: OpenInference's `llm.tools`, OpenAI's request) as
 * the conventions' flat one (`{type, name, description, parameters}`); others as they are.
 */
function functionShape(tool: unknown): unknown {
  if (!isObject(tool) || typeof tool.name === 'string' || !isObject(tool.function)) return tool;
  return { ...tool.function, type: typeof tool.type === 'string' ? tool.type : 'function' };
}

/**
 * The tools a model call was offered, by name: `gen_ai.tool.definitions` is a JSON list of
 * `{type, name, description?, …schema}`; some exporters record a list attribute of one JSON
 * string per tool (the AI SDK's legacy `ai.prompt.tools`), or each in the chat-completions shape
 * `{type, function: {name, …}}`. Unreadable: undefined (not "none offered").
 */
export function offeredTools(value: AttributeValue | undefined): Map<string, OfferedTool> | undefined {
  if (value === undefined) return undefined;
  const list = parsed(value);
  if (!Array.isArray(list)) return undefined;
  const tools = new Map<string, OfferedTool>();
  for (const item of list) {
    const tool = functionShape(parsed(item));
    if (!isObject(tool) || typeof tool.name !== 'string' || tools.has(tool.name)) continue;
    const inputSchema = isObject(tool.inputSchema) ? tool.inputSchema : isObject(tool.parameters) ? tool.parameters : undefined;
    tools.set(tool.name, {
      name: tool.name,
      ...(typeof tool.type === 'string' ? { type: tool.type } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      ...(inputSchema ? { inputSchema } : {}),
    });
  }
  return tools;
}
