/**
 * Loopscope's own marks inside genkit spans and models (the runner sets them while stepping;
 * the dialect reads them): a model named `loopscope/hand-written` answered a model call with
 * the parts the user wrote, and a tool span with this metadata attribute was answered by hand
 * at a pause (the tool itself did not run).
 */
export const HAND_WRITTEN_MODEL = 'loopscope/hand-written';

/** Set (as genkit action metadata, hence the `genkit:metadata:` prefix) on a tool span answered by hand. */
export const ANSWERED_BY_HAND_ATTRIBUTE = 'genkit:metadata:loopscope:answeredByHand';
