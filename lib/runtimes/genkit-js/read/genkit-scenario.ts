import { scenarioRuntime, type GenkitScenario, type Scenario } from '../../../contract/scenario';
import { GENKIT_DIALECT_ID } from './dialect-id';

/** Narrows a scenario to genkit JS (what the genkit runner, replays and the CLI play): a file that names no runtime is genkit JS's. */
export function isGenkitScenario(scenario: Scenario): scenario is GenkitScenario {
  return scenarioRuntime(scenario) === GENKIT_DIALECT_ID;
}
