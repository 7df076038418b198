/**
 * The step middleware and the tool wrapping of `loopscope/ai-sdk`: the built-in runner's own AI
 * SDK hooks (lib/runtime/ai-sdk/step-hooks.ts), set up once in the app for every call. Each model
 * call and tool execution asks the stepper of the call it runs in (app-calls.ts): a call that is
 * a Loopscope run pauses where the run's mode says — the developer continues, edits the request
 * or the input, answers by hand or fails it on Loopscope's run page — and any other call goes
 * straight on.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: yourModel, middleware: loopscopeStep() });
 * const tools = loopscopeTools({ getWeather, bookTrip });
 * ```
 */
import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { ToolSet } from 'ai';
import { stepMiddleware, stepToolsOf } from '../ai-sdk/step-hooks';
import { currentStepper } from './app-calls';

/** The middleware for `wrapLanguageModel({ model, middleware: loopscopeStep() })`: pauses before each model call of a stepped call. */
export function loopscopeStep(): LanguageModelV4Middleware {
  return stepMiddleware(currentStepper);
}

/**
 * The tools with each `execute` wrapped to pause before it runs in a stepped call (edit the input,
 * answer without running it, fail it). Tools without `execute` are handed back to the caller and
 * pause nothing; their calls are answered with `answerInLoopscope`.
 */
export function loopscopeTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
  return stepToolsOf({ tools, stepperOf: currentStepper });
}
