import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GenkitBeta } from 'genkit/beta';
import { errorMessage } from '../errors';
import type { ToolInfo } from './runner-protocol';

const MODULE_PATTERN = /\.(ts|mts|js|mjs)$/;
const SKIP_PATTERN = /\.(test|spec)\.|\.d\.ts$/;

interface ToolActionLike {
  __action: {
    name: string;
    description?: string;
    inputJsonSchema?: unknown;
    outputJsonSchema?: unknown;
    metadata?: Record<string, unknown>;
  };
}

async function toolKeys(ai: GenkitBeta): Promise<Set<string>> {
  const actions = await ai.registry.listActions();
  return new Set(Object.keys(actions).filter((key) => key.startsWith('/tool/')));
}

function describeTool(action: ToolActionLike, file: string): ToolInfo {
  const metadata = action.__action.metadata ?? {};
  // defineInterrupt marks its tools `metadata.tool.restartable = false`: meant to be answered by respond.
  const toolMetadata = metadata.tool as { restartable?: unknown } | undefined;
  const restartable = typeof toolMetadata?.restartable === 'boolean' ? toolMetadata.restartable : undefined;
  return {
    name: action.__action.name,
    description: action.__action.description ?? '',
    inputSchema: action.__action.inputJsonSchema,
    outputSchema: action.__action.outputJsonSchema,
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
