import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A tools folder made at test time for real runners (LOOPSCOPE_TOOLS_DIR): genkit JS tool
 * modules, AI SDK tool modules (`ai-sdk/`) and scenarios, in the OS temp dir with a
 * `node_modules` link to the project's, so `genkit`, `ai` and `zod` resolve to the copies the
 * runner uses. For tools that must not live in tools/ (they hang, spin or exit the process).
 */
export interface ToolsFixture {
  root: string;
  toolsDir: string;
  remove(): Promise<void>;
}

/** `defineTools` of the project, for genkit tool modules written into a fixture. */
export const DEFINE_TOOLS_MODULE = JSON.stringify(path.join(process.cwd(), 'lib', 'runtimes', 'genkit-js', 'run', 'define-tools.ts'));

export async function makeToolsFixture(files: { tools?: Record<string, string>; aiSdkTools?: Record<string, string>; scenarios: Record<string, unknown> }): Promise<ToolsFixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-tools-fixture-'));
  await symlink(path.join(process.cwd(), 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const toolsDir = path.join(root, 'tools');
  await mkdir(path.join(toolsDir, 'scenarios'), { recursive: true });
  await mkdir(path.join(toolsDir, 'ai-sdk'), { recursive: true });
  for (const [file, source] of Object.entries(files.tools ?? {})) await writeFile(path.join(toolsDir, file), source);
  for (const [file, source] of Object.entries(files.aiSdkTools ?? {})) await writeFile(path.join(toolsDir, 'ai-sdk', file), source);
  for (const [name, scenario] of Object.entries(files.scenarios)) await writeFile(path.join(toolsDir, 'scenarios', `${name}.json`), JSON.stringify({ name, ...(scenario as object) }, null, 2));
  return { root, toolsDir, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * AI SDK tools that misbehave: `generateReport` waits `seconds` and never looks at its abort
 * signal (a hanging tool), `exitProcess` takes the runner down, `getWeather` is a plain tool.
 */
export const AI_SDK_HAZARD_TOOLS = `import { tool } from 'ai';
import { z } from 'zod';

export default {
  generateReport: tool({
    description: 'Builds a slow report; takes \`seconds\` to finish.',
    inputSchema: z.object({ seconds: z.number() }),
    execute: async ({ seconds }) => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return { rows: 42 };
    },
  }),
  exitProcess: tool({
    description: 'Calls process.exit.',
    inputSchema: z.object({ code: z.number() }),
    execute: async ({ code }) => {
      process.exit(code);
    },
  }),
  getWeather: tool({
    description: 'Weather in a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, celsius: 24 }),
  }),
};
`;

/**
 * A genkit tool that busy-loops: its runner's event loop never turns again, so not even its span
 * start is announced. It first writes the file named in its input: a test sees it has begun.
 */
export const GENKIT_SPIN_TOOL = `import { writeFileSync } from 'node:fs';
import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS_MODULE};

export default defineTools((ai) => [
  ai.defineTool(
    { name: 'spinForever', description: 'Busy-loops.', inputSchema: z.object({ startedFile: z.string() }), outputSchema: z.object({ never: z.boolean() }) },
    async ({ startedFile }) => {
      writeFileSync(startedFile, 'spinning');
      for (;;) {}
    },
  ),
]);
`;

/** A genkit tool that waits `seconds` (a hanging tool: nothing it awaits looks at an abort). */
export const GENKIT_HANG_TOOL = `import { z } from 'genkit';
import { defineTools } from ${DEFINE_TOOLS_MODULE};

export default defineTools((ai) => [
  ai.defineTool(
    { name: 'generateReport', description: 'Builds a slow report.', inputSchema: z.object({ seconds: z.number() }), outputSchema: z.object({ rows: z.number() }) },
    async ({ seconds }) => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return { rows: 42 };
    },
  ),
]);
`;

/** An AI SDK scenario whose first turn calls `calls` (name, ref, input) and whose second answers `text`. */
export function aiSdkScenario(options: { tools: string[]; calls: { name: string; ref: string; input: unknown }[]; text?: string }) {
  return {
    runtime: 'ai-sdk',
    title: 'Fixture',
    description: 'A fixture scenario.',
    prompt: 'Go.',
    tools: options.tools,
    script: [{ toolCalls: options.calls }, { text: options.text ?? 'Never reached.' }],
  };
}

/** A genkit scenario whose first turn requests `calls` and whose second answers `text`. */
export function genkitScenario(options: { tools: string[]; calls: { name: string; ref: string; input: unknown }[]; text?: string }) {
  return {
    title: 'Fixture',
    description: 'A fixture scenario.',
    prompt: 'Go.',
    tools: options.tools,
    script: [{ toolRequests: options.calls }, { text: options.text ?? 'Never reached.' }],
  };
}
