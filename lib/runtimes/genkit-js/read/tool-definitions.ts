import { isObject } from '../../../spans/json-value';
import type { RecordedToolDefinition } from '../../../loop/resume-model';

/**
 * A tool definition from a recorded request's `tools` (what genkit sent the model: name,
 * description, input and output JSON schema, and the tool's metadata — genkit Go tools
 * advertise their `resumeSchema` there), or undefined when the entry has no name.
 */
export function readToolDefinition(tool: unknown): RecordedToolDefinition | undefined {
  if (!isObject(tool) || typeof tool.name !== 'string') return undefined;
  return {
    name: tool.name,
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    ...(isObject(tool.metadata) ? { metadata: tool.metadata } : {}),
  };
}

/** The definitions of a recorded request's tools (entries without a name are left out). */
export function readToolDefinitions(tools: unknown): RecordedToolDefinition[] {
  return (Array.isArray(tools) ? tools : []).flatMap((tool) => readToolDefinition(tool) ?? []);
}
