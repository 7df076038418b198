import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ListedTool } from '../../contract/tool-info';
import { exampleFromSchema } from '../../loop/example-from-schema';
import { scenarioList } from './scenario-list';
import { useRunnerContext } from '../testing/runner-context';

const TOOLS = path.join(process.cwd(), 'tools');
const runner = useRunnerContext();

async function filesIn(folder: string, extension: RegExp): Promise<string[]> {
  return (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && extension.test(entry.name) && !/\.(test|spec)\./.test(entry.name))
    .map((entry) => path.join(folder, entry.name));
}

/** The tool names the sources define, read from the source, not from the loaders under test. */
async function shippedToolNames(): Promise<{ genkitJs: string[]; aiSdk: string[]; go: string[] }> {
  const genkitJs: string[] = [];
  for (const file of await filesIn(TOOLS, /\.ts$/)) {
    for (const match of (await readFile(file, 'utf8')).matchAll(/^\s*name: '(\w+)',$/gm)) genkitJs.push(match[1]);
  }
  const aiSdk: string[] = [];
  for (const file of await filesIn(path.join(TOOLS, 'ai-sdk'), /\.ts$/)) {
    const module = (await import(pathToFileURL(file).href)) as { default: Record<string, unknown> };
    aiSdk.push(...Object.keys(module.default));
  }
  const go: string[] = [];
  for (const file of await filesIn(path.join(TOOLS, 'go'), /\.go$/)) {
    for (const match of (await readFile(file, 'utf8')).matchAll(/Define\w*Tool\(g, "(\w+)"/g)) go.push(match[1]);
  }
  return { genkitJs: genkitJs.sort(), aiSdk: aiSdk.sort(), go: go.sort() };
}

/** Each listed tool's input schema (an object schema) and the example its editor starts from. */
function inputsOf(tools: ListedTool[]) {
  return tools
    .map((tool) => ({ name: tool.name, type: (tool.inputSchema as { type?: unknown } | undefined)?.type, example: tool.inputExample }))
    .sort((first, second) => first.name.localeCompare(second.name));
}

describe('GET /api/scenarios lists every shipped tool with its schemas', () => {
  it('genkit JS (tools/), AI SDK (tools/ai-sdk/) and genkit Go (tools/go/) tools each have an input schema and an example built from it', async () => {
    const shipped = await shippedToolNames();
    expect(shipped.genkitJs.length).toBeGreaterThan(5);
    expect(shipped.aiSdk.length).toBeGreaterThan(5);
    expect(shipped.go.length).toBeGreaterThan(5);
    // Go tools are listed once the Go runner has started (built with the real go toolchain).
    expect(await runner.context.goRunner.tools()).toBeDefined();
    const list = await scenarioList(runner.context);
    expect(list.problems).toEqual([]);

    for (const [runtime, listed, names] of [
      ['genkit JS', list.toolsByRuntime['genkit-js'], shipped.genkitJs],
      ['AI SDK', list.toolsByRuntime['ai-sdk'], shipped.aiSdk],
      ['genkit Go', list.toolsByRuntime['genkit-go'] ?? [], shipped.go],
    ] as const) {
      const inputs = inputsOf(listed);
      expect(inputs.map((input) => input.name), runtime).toEqual(names);
      for (const input of inputs) {
        expect(input.type, `${runtime} ${input.name}: input schema`).toBe('object');
        expect(input.example, `${runtime} ${input.name}: input example`).toBeTypeOf('object');
        expect(input.example, `${runtime} ${input.name}: input example`).not.toBeNull();
      }
    }

    // Examples as the step panel's editors show them, from genkit's own zod-to-JSON-schema conversion.
    const weather = list.toolsByRuntime['genkit-js'].find((tool) => tool.name === 'getWeather');
    expect(weather?.inputExample).toEqual({ city: '' });
    expect(weather?.outputExample).toEqual({ city: '', temperatureC: 0, conditions: '' });
    // Every genkit JS tool of tools/ declares an output schema: each is listed with it.
    for (const tool of list.toolsByRuntime['genkit-js']) {
      expect(exampleFromSchema(tool.outputSchema), `genkit JS ${tool.name}: output example`).toEqual(tool.outputExample);
      expect(tool.outputExample, `genkit JS ${tool.name}: output example`).toBeTypeOf('object');
      expect(tool.outputExample, `genkit JS ${tool.name}: output example`).not.toBeNull();
    }
    // The Go and AI SDK tools that declare an output schema are listed with it too.
    expect(list.toolsByRuntime['genkit-go']?.find((tool) => tool.name === 'getWeather')?.outputExample).toMatchObject({ temperatureC: 0 });
    expect(list.toolsByRuntime['ai-sdk'].find((tool) => tool.name === 'webSearch')?.outputExample).toEqual({ results: [] });
  }, 320_000);
});
