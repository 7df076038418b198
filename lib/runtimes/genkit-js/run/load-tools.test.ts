import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { genkit } from 'genkit/beta';
import { toToolDefinition } from 'genkit/tool';
import { afterAll, describe, expect, it } from 'vitest';
import { loadToolModules } from './load-tools';

const ROOT = process.cwd();

/** The JSON schemas genkit itself sends the model for a registered tool (what a trace records). */
async function genkitDefinition(ai: ReturnType<typeof genkit>, name: string) {
  const action = await ai.registry.lookupAction(`/tool/${name}`);
  if (!action) throw new Error(`genkit has no tool ${name}`);
  return toToolDefinition(action as Parameters<typeof toToolDefinition>[0]);
}

describe('loadToolModules: the tools of tools/ with their schemas', () => {
  it('gives every zod-defined tool the JSON schemas genkit sends the model for it', async () => {
    const ai = genkit({});
    const { tools, problems } = await loadToolModules(ai, path.join(ROOT, 'tools'));
    expect(problems).toEqual([]);
    expect(tools.map((tool) => tool.name)).toContain('getWeather');
    for (const tool of tools) {
      const definition = await genkitDefinition(ai, tool.name);
      // Every shipped genkit JS tool declares both schemas in zod (tools/*.ts).
      expect({ name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }).toEqual({
        name: tool.name,
        inputSchema: definition.inputSchema,
        outputSchema: definition.outputSchema,
      });
    }
    const weather = tools.find((tool) => tool.name === 'getWeather');
    expect(weather?.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string', description: 'City name, e.g. "Lisbon"' } }, required: ['city'] });
    expect(weather?.outputSchema).toMatchObject({ type: 'object', required: ['city', 'temperatureC', 'conditions'] });
  });

  describe('a tool folder with a JSON-schema tool and a tool without an output schema', () => {
    const folder = path.join(ROOT, '.loopscope-test', `tools-schemas-${process.pid}`);
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('keeps a JSON schema as written, and a schema the tool does not declare undefined', async () => {
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, 'mixed.ts'),
        [
          "import { z } from 'genkit';",
          "import { defineTools } from '../../lib/runtimes/genkit-js/run/define-tools';",
          'export default defineTools((ai) => [',
          "  ai.defineTool({ name: 'byJson', description: 'JSON schema', inputJsonSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }, async () => 'ok'),",
          "  ai.defineTool({ name: 'noOutput', description: 'no output schema', inputSchema: z.object({ note: z.string() }) }, async () => 'ok'),",
          ']);',
        ].join('\n'),
      );
      const ai = genkit({});
      const { tools, problems } = await loadToolModules(ai, folder);
      expect(problems).toEqual([]);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('byJson')?.inputSchema).toEqual({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] });
      expect(byName.get('byJson')?.outputSchema).toBeUndefined();
      expect(byName.get('noOutput')?.inputSchema).toEqual((await genkitDefinition(ai, 'noOutput')).inputSchema);
      expect(byName.get('noOutput')?.outputSchema).toBeUndefined();
    });
  });
});
