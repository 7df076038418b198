import { asSchema, type FlexibleSchema } from 'ai';
import { errorMessage } from '../../errors';
import type { ToolInfo } from '../../contract/tool-info';
import type { AiSdkToolCatalog } from './load-ai-sdk-tools';

/** A tool schema as JSON Schema, the way the SDK sends it to a provider (`asSchema(…).jsonSchema`). */
async function jsonSchemaOf(schema: FlexibleSchema<unknown> | undefined): Promise<unknown> {
  return schema === undefined ? undefined : await asSchema(schema).jsonSchema;
}

/**
 * The catalog's tools as the page lists them (name, description, JSON schemas, file): what the
 * step panel of an AI SDK run pre-fills its editors from. A schema the SDK cannot turn into JSON
 * Schema is left out, with the tool still listed.
 */
export async function describeAiSdkTools(catalog: AiSdkToolCatalog): Promise<ToolInfo[]> {
  const described: ToolInfo[] = [];
  for (const [name, tool] of Object.entries(catalog.tools)) {
    // A description may be a function of the call's context: listed only when it is text.
    const info: ToolInfo = { name, description: typeof tool.description === 'string' ? tool.description : '', file: `ai-sdk/${catalog.files[name] ?? ''}` };
    try {
      info.inputSchema = await jsonSchemaOf(tool.inputSchema as FlexibleSchema<unknown>);
      info.outputSchema = await jsonSchemaOf((tool as { outputSchema?: FlexibleSchema<unknown> }).outputSchema);
    } catch (error) {
      info.description = `${info.description} (schema not readable: ${errorMessage(error)})`.trim();
    }
    described.push(info);
  }
  return described;
}
