import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { asSchema, type Tool, type ToolApprovalStatus } from 'ai';
import type { ToolInfo } from '../../../contract/tool-info';
import { errorMessage } from '../../../errors';

const MODULE_PATTERN = /\.(ts|mts|js|mjs)$/;
const SKIP_PATTERN = /\.(test|spec)\.|\.d\.ts$/;

/** A tool's approval policy: the AI SDK's per-tool `SingleToolApprovalFunction` (input first). */
export type AiSdkApprovalPolicy = (input: never, options: never) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>;

export interface AiSdkToolCatalog {
  /** Every usable tool by name (a `ToolSet` for `generateText`). */
  tools: Record<string, Tool>;
  /** Approval policies by tool name (a module's named export `toolApproval`). */
  policies: Record<string, AiSdkApprovalPolicy>;
  /** The module each tool came from, for messages. */
  files: Record<string, string>;
  /** One entry per module (or tool) that could not be used; the others still load. */
  problems: { file: string; message: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `tool()`, `dynamicTool()` and a provider tool return: an object with an input schema. */
function isTool(value: unknown): value is Tool {
  return isRecord(value) && value.inputSchema !== undefined;
}

async function moduleFiles(directory: string, problems: AiSdkToolCatalog['problems']): Promise<string[]> {
  try {
    return (await readdir(directory, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && MODULE_PATTERN.test(entry.name) && !SKIP_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    // No tools/ai-sdk/ at all is fine: a project may use genkit only.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push({ file: directory, message: `cannot read the AI SDK tools folder: ${errorMessage(error)}` });
    return [];
  }
}

/** Adds one module's entries to `into`; a name already taken by another module is ambiguous, so neither module's entry is kept. */
function collect<T>({ into, entries, entry, what, problems }: {
  into: Map<string, { value: T; file: string } | { clash: string[] }>;
  entries: [string, T][];
  entry: string;
  what: string;
  problems: AiSdkToolCatalog['problems'];
}): void {
  for (const [name, value] of entries) {
    const existing = into.get(name);
    if (!existing) {
      into.set(name, { value, file: entry });
      continue;
    }
    const files = 'clash' in existing ? [...existing.clash, entry] : [existing.file, entry];
    into.set(name, { clash: files });
    problems.push({ file: entry, message: `${what} "${name}" is defined in both ${files.slice(0, -1).join(', ')} and ${entry}: rename one (neither is loaded)` });
  }
}

/**
 * Imports every module in `tools/ai-sdk/`: each `export default`s a record of AI SDK tools
 * (`{ transferMoney: tool({…}) }`) and may export `toolApproval`, a record of approval
 * policies by tool name. A module that fails to import, or exports something else, is
 * reported with its file name and skipped; the others load.
 */
export async function loadAiSdkTools(directory: string): Promise<AiSdkToolCatalog> {
  const problems: AiSdkToolCatalog['problems'] = [];
  const tools = new Map<string, { value: Tool; file: string } | { clash: string[] }>();
  const policies = new Map<string, { value: AiSdkApprovalPolicy; file: string } | { clash: string[] }>();
  for (const entry of await moduleFiles(directory, problems)) {
    let module: { default?: unknown; toolApproval?: unknown };
    try {
      module = (await import(pathToFileURL(path.join(directory, entry)).href)) as typeof module;
    } catch (error) {
      problems.push({ file: entry, message: errorMessage(error) });
      continue;
    }
    if (!isRecord(module.default)) {
      problems.push({ file: entry, message: 'the default export must be a record of AI SDK tools, e.g. export default { getWeather: tool({…}) }' });
      continue;
    }
    const notTools = Object.entries(module.default).filter(([, value]) => !isTool(value)).map(([name]) => name);
    if (notTools.length > 0) {
      problems.push({ file: entry, message: `not an AI SDK tool (made with tool(), dynamicTool() or a provider): ${notTools.join(', ')}` });
      continue;
    }
    if (module.toolApproval !== undefined) {
      const bad = isRecord(module.toolApproval) ? Object.entries(module.toolApproval).filter(([, value]) => typeof value !== 'function').map(([name]) => name) : ['(the export itself)'];
      if (bad.length > 0) {
        problems.push({ file: entry, message: `toolApproval must be a record of functions by tool name; not a function: ${bad.join(', ')}` });
        continue;
      }
    }
    collect({ into: tools, entries: Object.entries(module.default) as [string, Tool][], entry, what: 'tool', problems });
    if (isRecord(module.toolApproval)) {
      collect({ into: policies, entries: Object.entries(module.toolApproval) as [string, AiSdkApprovalPolicy][], entry, what: 'approval policy', problems });
    }
  }

  const catalog: AiSdkToolCatalog = { tools: {}, policies: {}, files: {}, problems };
  for (const [name, loaded] of tools) {
    if ('clash' in loaded) continue;
    catalog.tools[name] = loaded.value;
    catalog.files[name] = loaded.file;
  }
  for (const [name, loaded] of policies) {
    if ('clash' in loaded) continue;
    if (!Object.hasOwn(catalog.tools, name)) {
      problems.push({ file: loaded.file, message: `toolApproval names "${name}", which no module in tools/ai-sdk/ defines` });
      continue;
    }
    catalog.policies[name] = loaded.value;
  }
  return catalog;
}

/** A JSON schema of a tool's schema (zod or JSON schema), or undefined when it has none or it cannot be converted. */
async function jsonSchemaOf(schema: unknown): Promise<unknown> {
  if (schema === undefined) return undefined;
  try {
    return await asSchema(schema as Parameters<typeof asSchema>[0]).jsonSchema;
  } catch {
    return undefined;
  }
}

/** The catalog's tools as the server and the page see them: schemas as JSON, and which are handed back (no `execute`). */
export async function aiSdkToolInfos(catalog: AiSdkToolCatalog): Promise<ToolInfo[]> {
  return Promise.all(
    Object.entries(catalog.tools).map(async ([name, tool]) => ({
      name,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema: await jsonSchemaOf(tool.inputSchema),
      outputSchema: await jsonSchemaOf((tool as { outputSchema?: unknown }).outputSchema),
      ...(typeof (tool as { execute?: unknown }).execute === 'function' ? {} : { handedBack: true }),
      file: `ai-sdk/${catalog.files[name]}`,
    })),
  );
}
