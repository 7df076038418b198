import type { GenkitGoScenario, Scenario } from '../../../contract/scenario';
import { GENKIT_GO_DIALECT_ID } from './dialect-id';

/** Narrows a scenario to genkit Go (what the Go runner plays). */
export function isGenkitGoScenario(scenario: Scenario): scenario is GenkitGoScenario {
  return scenario.runtime === GENKIT_GO_DIALECT_ID;
}
