/**
 * LangChain's values as the instrumentations serialize them into span attributes: a
 * `ToolMessage` (LangChain's `{lc, type: "constructor", id: [… "ToolMessage"], kwargs: {…}}`,
 * or OpenInference's `{type: "tool", data: {…}}`), the `tool_call_with_context` a `Send` gives a
 * tool task, and the `Command` a resumed run is invoked with.
 */
import { isObject } from '../../../spans/json-value';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue } from '../../../spans/span';

/** A recorded JSON value, parsed (undefined when it is absent or not JSON). */
export function jsonOf(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  const parsed = tryParseJsonLimited(value);
  return parsed.ok ? parsed.value : undefined;
}

export interface ToolMessageValue {
  content: unknown;
  toolCallId?: string;
  /** `success` or `error` (a failure the ToolNode handed to the model, a rejection an app wrote). */
  status?: string;
}

/** A ToolMessage in either serialization, else undefined. */
export function toolMessageOf(value: unknown): ToolMessageValue | undefined {
  if (!isObject(value)) return undefined;
  const fields = isObject(value.kwargs) && Array.isArray(value.id) && value.id.at(-1) === 'ToolMessage' ? value.kwargs : value.type === 'tool' && isObject(value.data) ? value.data : undefined;
  if (!fields) return undefined;
  return {
    content: fields.content,
    ...(typeof fields.tool_call_id === 'string' ? { toolCallId: fields.tool_call_id } : {}),
    ...(typeof fields.status === 'string' ? { status: fields.status } : {}),
  };
}

/** The tool call a `tool_call_with_context` input names (a tool task of a `Send`: create_react_agent's ToolNode). */
export function toolCallOfTaskInput(value: unknown): { id?: string; name?: string; args?: unknown } | undefined {
  const input = isObject(value) && isObject(value.inputs) ? value.inputs : value;
  if (!isObject(input) || !isObject(input.tool_call)) return undefined;
  const call = input.tool_call;
  return { ...(typeof call.id === 'string' ? { id: call.id } : {}), ...(typeof call.name === 'string' ? { name: call.name } : {}), ...('args' in call ? { args: call.args } : {}) };
}

/** The `Command` a run was invoked with (`{resume, update, goto}`), when its recorded input is one. */
export function commandOf(value: unknown): { resume?: unknown; hasResume: boolean } | undefined {
  const input = isObject(value) && isObject(value.inputs) ? value.inputs : value;
  if (!isObject(input) || !('resume' in input) || !('goto' in input || 'update' in input)) return undefined;
  return { resume: input.resume, hasResume: input.resume !== null && input.resume !== undefined };
}
