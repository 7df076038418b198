/**
 * The step middleware and the tool wrapping of `loopscope/ai-sdk`: the built-in runner's own AI
 * SDK hooks (lib/runtimes/ai-sdk/run/step-hooks.ts), set up once in the app for every call. Each model
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
import { stepMiddleware, stepToolsOf, type StepperOf } from '../run/step-hooks';
import { currentStepper } from './app-calls';
import { installedTelemetry } from './loopscope-telemetry';

let toldWithoutTelemetry = false;

/** The stepper of the call a hook runs in; without `loopscopeTelemetry()` there is none, and the developer is told once why. */
const stepperOfCall: StepperOf = () => {
  if (!toldWithoutTelemetry && !installedTelemetry()) {
    toldWithoutTelemetry = true;
    process.stderr.write('loopscope/ai-sdk: loopscopeStep() / loopscopeTools() pause nothing without loopscopeTelemetry(), called once at startup: it is what makes each call a Loopscope run.\n');
  }
  return currentStepper();
};

/** The middleware for `wrapLanguageModel({ model, middleware: loopscopeStep() })`: pauses before each model call of a stepped call. */
export function loopscopeStep(): LanguageModelV4Middleware {
  return stepMiddleware(stepperOfCall);
}

/**
 * The tools with each `execute` wrapped to pause before it runs in a stepped call (edit the input,
 * answer without running it, fail it). Tools without `execute` are handed back to the caller and
 * pause nothing; their calls are answered with `answerInLoopscope`.
 */
export function loopscopeTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
  return stepToolsOf({ tools, stepperOf: stepperOfCall });
}
