import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GenkitBeta } from 'genkit/beta';
import { toJsonSchema, type ProvidedSchema } from 'genkit/schema';
import { errorMessage } from '../../../errors';
import type { ToolInfo } from '../../../runner/runner-protocol';

const MODULE_PATTERN = /\.(ts|mts|js|mjs)$/;
const SKIP_PATTERN = /\.(test|spec)\.|\.d\.ts$/;

interface ToolActionLike {
  __action: {
    name: string;
    description?: string;
    /** The zod schema the tool was defined with. */
    inputSchema?: ProvidedSchema['schema'];
    outputSchema?: ProvidedSchema['schema'];
    /** Set only for a tool defined with a JSON schema (genkit 1.42: undefined for a zod one). */
    inputJsonSchema?: ProvidedSchema['jsonSchema'];
    outputJsonSchema?: ProvidedSchema['jsonSchema'];
    metadata?: Record<string, unknown>;
  };
}

async function toolKeys(ai: GenkitBeta): Promise<Set<string>> {
  const actions = await ai.registry.listActions();
  return new Set(Object.keys(actions).filter((key) => key.startsWith('/tool/')));
}

/**
 * A tool's schema as JSON schema, converted the way genkit converts it for the model:
 * `toToolDefinition` (@genkit-ai/ai tool.ts) calls `toJsonSchema({ schema, jsonSchema })` on the
 * action's zod schema and its JSON schema. genkit 1.42 sets `__action.inputJsonSchema` only when the
 * tool was defined with one, so a zod-defined tool has only `inputSchema` (zod) there.
 * toToolDefinition puts `z.void()` in place of a missing schema; here none stays undefined, so an
 * editor has nothing to start from rather than a schema that says nothing. A copy: toJsonSchema
 * returns the object genkit caches for the schema, which nobody here may change.
 */
function jsonSchemaOf(provided: ProvidedSchema): unknown {
  const converted = toJsonSchema(provided);
  return converted ? structuredClone(converted) : undefined;
}

function describeTool(action: ToolActionLike, file: string): ToolInfo {
  const metadata = action.__action.metadata ?? {};
  // defineInterrupt marks its tools `metadata.tool.restartable = false`: meant to be answered by respond.
  const toolMetadata = metadata.tool as { restartable?: unknown } | undefined;
  const restartable = typeof toolMetadata?.restartable === 'boolean' ? toolMetadata.restartable : undefined;
  return {
    name: action.__action.name,
    description: action.__action.description ?? '',
    inputSchema: jsonSchemaOf({ schema: action.__action.inputSchema, jsonSchema: action.__action.inputJsonSchema }),
    outputSchema: jsonSchemaOf({ schema: action.__action.outputSchema, jsonSchema: action.__action.outputJsonSchema }),
    restartable,
    file,
  };
}

/**
 * Imports every module in `tools/` and lets it define its tools on the runner's genkit
 * instance. A module that fails to import or throws is reported and skipped; the others load.
 */
export async function loadToolModules(ai: GenkitBeta, directory: string) {
  const tools: ToolInfo[] = [];
  const problems: { file: string; message: string }[] = [];
  let entries: string[] = [];
  try {
    entries = (await readdir(directory, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && MODULE_PATTERN.test(entry.name) && !SKIP_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    problems.push({ file: directory, message: `cannot read the tools folder: ${errorMessage(error)}` });
  }

  for (const entry of entries) {
    const before = await toolKeys(ai);
    try {
      const module = (await import(pathToFileURL(path.join(directory, entry)).href)) as { default?: unknown };
      if (typeof module.default !== 'function') {
        problems.push({ file: entry, message: 'the default export must be a function (ai) => tools; wrap it in defineTools(…)' });
        continue;
      }
      await module.default(ai);
    } catch (error) {
      problems.push({ file: entry, message: errorMessage(error) });
      continue;
    }
    for (const key of await toolKeys(ai)) {
      if (before.has(key)) continue;
      const action = (await ai.registry.lookupAction(key)) as unknown as ToolActionLike | undefined;
      if (action) tools.push(describeTool(action, entry));
    }
  }
  return { tools, problems };
}
