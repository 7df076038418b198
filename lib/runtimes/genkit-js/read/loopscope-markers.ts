/**
 * Loopscope's own marks inside genkit spans and models (the runner sets them while stepping;
 * the dialect reads them): a model named `loopscope/hand-written` answered a model call with
 * the parts the user wrote, and a tool span with this metadata attribute was answered by hand
 * at a pause (the tool itself did not run).
 */
import { scenarioOfScriptedModel } from '../../../contract/scenario';

export const HAND_WRITTEN_MODEL = 'loopscope/hand-written';

/**
 * A model Loopscope defines in its runner itself, in either runtime: a scenario's scripted model
 * (`scripted/<scenario>`) or the hand-written one. It plays data and runs no tools/ code, so the
 * start of its turn need not leave the runner before the turn runs (lib/runner/span-starts.ts).
 */
export function isLoopscopeModel(name: string | undefined): boolean {
  return name !== undefined && (scenarioOfScriptedModel(name) !== undefined || name === HAND_WRITTEN_MODEL);
}

/** Set (as genkit action metadata, hence the `genkit:metadata:` prefix) on a tool span answered by hand. */
export const ANSWERED_BY_HAND_ATTRIBUTE = 'genkit:metadata:loopscope:answeredByHand';
