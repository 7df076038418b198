import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ScenarioSchema, type Scenario } from '../contract/scenario';
import { errorMessage } from '../errors';

// The file format is part of the wire contract (GET /api/scenarios lists it); loading stays here.
export { ScenarioSchema, ScriptedResumeSchema, ScriptedToolRequestSchema, ScriptedTurnSchema, scenarioRuntime, scriptedModelName, type GenkitScenario, type Scenario, type ScriptedResume, type ScriptedTurn } from '../contract/scenario';

export interface ScenarioLoadResult {
  scenarios: Scenario[];
  /** One entry per file that could not be used; the others still load. */
  problems: { file: string; message: string }[];
}

/** Reads every `*.json` scenario in a folder. A bad file is reported, never fatal. */
export async function loadScenarios(directory: string): Promise<ScenarioLoadResult> {
  const result: ScenarioLoadResult = { scenarios: [], problems: [] };
  let entries: string[];
  try {
    entries = (await readdir(directory)).filter((entry) => entry.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  for (const entry of entries) {
    const file = path.join(directory, entry);
    try {
      const parsed = ScenarioSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        result.problems.push({ file: entry, message: `${issue.path.join('.') || '(root)'}: ${issue.message}` });
        continue;
      }
      if (`${parsed.data.name}.json` !== entry) {
        result.problems.push({ file: entry, message: `the scenario is named "${parsed.data.name}" but the file is ${entry}` });
        continue;
      }
      result.scenarios.push(parsed.data);
    } catch (error) {
      result.problems.push({ file: entry, message: errorMessage(error) });
    }
  }
  result.scenarios.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.name.localeCompare(b.name));
  return result;
}
