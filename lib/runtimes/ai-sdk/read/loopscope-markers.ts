/**
 * Loopscope's own marks inside the AI SDK's spans (the runner sets them on the SDK's `chat` and
 * `execute_tool` spans while stepping — lib/runtimes/ai-sdk/run/step-hooks.ts; the dialect reads
 * them). The spans themselves are the SDK's: stepping adds attributes, never spans.
 */
import { HAND_WRITTEN_MODEL, isLoopscopeModel } from '../../genkit-js/read/loopscope-markers';

/** The name a hand-written answer's model goes by, for both runtimes (`gen_ai.response.model` of its `chat` span); the models Loopscope defines. */
export { HAND_WRITTEN_MODEL, isLoopscopeModel };

export const AI_SDK_STEP_MARKERS = {
  /** On a `chat` span: the model was not called; the answer was written by hand at a pause. */
  handWritten: 'loopscope.step.hand_written',
  /**
   * On a `chat` span: the request was edited at a pause; this is the prompt the model was sent
   * (the provider's `LanguageModelV4Prompt` as JSON). The SDK's `gen_ai.input.messages` keep what
   * the loop itself would have sent.
   */
  editedRequest: 'loopscope.step.edited_request',
  /** On an `execute_tool` span: the tool did not run; its result was written by hand at a pause. */
  answeredByHand: 'loopscope.step.answered_by_hand',
  /** On an `execute_tool` span: the input was edited at a pause; the model's own arguments are kept here. */
  modelArguments: 'loopscope.step.model_arguments',
} as const;
