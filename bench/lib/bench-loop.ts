/**
 * The genkit instance the in-process benchmarks drive: the bench tools of `bench/fixtures/tools`
 * and the scripted model of their `bench-loop` scenario. genkit is imported here, lazily, so that
 * a benchmark sets its tracer provider up before genkit first asks for one.
 */
import path from 'node:path';

/** `projectDir`: the checkout whose bench/fixtures/tools are loaded (the working directory unless given). */
export async function benchLoopGenkit(projectDir = process.cwd()) {
  const { genkit } = await import('genkit/beta');
  const { loadToolModules } = await import('../../lib/runtimes/genkit-js/run/load-tools');
  const { loadScenarios } = await import('../../lib/runner/scenario');
  const { isGenkitScenario } = await import('../../lib/runtimes/genkit-js/read/genkit-scenario');
  const { defineScriptedModel } = await import('../../lib/runtimes/genkit-js/run/scripted-model');
  const toolsDir = path.join(projectDir, 'bench', 'fixtures', 'tools');
  const ai = genkit({});
  await loadToolModules(ai, toolsDir);
  const scenario = (await loadScenarios(path.join(toolsDir, 'scenarios'))).scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === 'bench-loop');
  if (!scenario) throw new Error(`bench/fixtures/tools/scenarios has no bench-loop scenario.`);
  defineScriptedModel(ai, scenario);
  return { ai, scenario };
}
