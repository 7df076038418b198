/**
 * Step-by-step AI SDK runs: the scripted model wrapped with the SDK's own `wrapLanguageModel`
 * middleware (`wrapGenerate` / `wrapStream`) pauses before every model call, and each tool's
 * `execute` is wrapped to pause before it runs. The loop stays the SDK's `generateText`: these
 * hooks only decide what one model call or one tool execution does, then hand back to it.
 * The spans are the SDK's own; a decision that changes what ran marks the span it happened in
 * (lib/runtimes/ai-sdk/read/loopscope-markers.ts).
 */
import { trace } from '@opentelemetry/api';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { wrapLanguageModel, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { z } from 'zod';
import type { HandWrittenPartSchema } from '../../../contract/pause';
import { AI_SDK_STEP_MARKERS } from '../read/loopscope-markers';
import type { RunStepper } from '../../../runner/run-stepper';
import type { PauseAction } from '../../../runner/step-protocol';
import { handWrittenResult, handWrittenStream } from './hand-written-answer';

/**
 * What the AI SDK can do at its pauses. A model call: go on, be sent an edited request, be
 * answered by hand, or fail (the call fails, as a provider error would). A tool: go on with
 * its input or an edited one, be answered by hand, or fail (the SDK hands the model a
 * `tool-error` and the loop goes on). No tool "interrupt": the SDK's pauses (approvals, tools
 * without `execute`) are decided before a tool runs, not from inside it.
 */
export const AI_SDK_MODEL_ACTIONS: PauseAction[] = ['continue', 'edit-request', 'replace-answer', 'fail'];
export const AI_SDK_TOOL_ACTIONS: PauseAction[] = ['continue', 'edit-input', 'answer', 'fail'];

/**
 * What the hooks ask at a step: the runner's RunStepper, or — in a developer's own app
 * (lib/runtimes/ai-sdk/app-package) — a stepper whose pauses the Loopscope server holds.
 */
export type AiSdkStepper = Pick<RunStepper, 'abort' | 'nextModelTurn' | 'wantsModelPause' | 'wantsToolPause' | 'pause'>;

/**
 * The stepper of the call a hook runs in, or undefined when the call is not stepped (the hook
 * then hands straight on). The runner steps one call per model it wraps; an app's model and
 * tools are wrapped once and serve every call, so they find each call's stepper when it runs.
 */
export type StepperOf = () => AiSdkStepper | undefined;

type ModelStep = { kind: 'call'; params: LanguageModelV4CallOptions } | { kind: 'answer'; parts: z.infer<typeof HandWrittenPartSchema>[] };

/**
 * Whether this model call pauses (counting it). Synchronous, so a call that does not pause goes
 * straight to the model with nothing awaited in between (bench/ai-sdk-step-overhead.bench.ts).
 */
function modelCallPauses(stepper: AiSdkStepper): { turn: number } | undefined {
  const turn = stepper.nextModelTurn();
  return stepper.wantsModelPause(turn) ? { turn } : undefined;
}

/** Pauses before one model call and says what the call does. */
async function modelStep({ stepper, params, turn }: { stepper: AiSdkStepper; params: LanguageModelV4CallOptions; turn: number }): Promise<ModelStep> {
  const decision = await stepper.pause({ kind: 'model', modelTurn: turn, actions: AI_SDK_MODEL_ACTIONS, request: params.prompt });
  // The SDK runs the model call inside its `chat` span's context: the marks land on that span.
  const span = trace.getActiveSpan();
  switch (decision.action) {
    case 'replace-answer':
      span?.setAttribute(AI_SDK_STEP_MARKERS.handWritten, 'true');
      return { kind: 'answer', parts: decision.parts };
    case 'edit-request':
      span?.setAttribute(AI_SDK_STEP_MARKERS.editedRequest, JSON.stringify(decision.request));
      return { kind: 'call', params: { ...params, prompt: decision.request as unknown as LanguageModelV4Prompt } };
    case 'fail':
      throw new Error(decision.message);
    default:
      return { kind: 'call', params };
  }
}

/**
 * The SDK middleware (`wrapLanguageModel({ model, middleware })`) that pauses before each model
 * call of a stepped call (`doGenerate` for generateText, `doStream` for streamText) and carries
 * out the decision; a call `stepperOf` finds no stepper for goes straight to the model.
 */
export function stepMiddleware(stepperOf: StepperOf): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    wrapGenerate: ({ doGenerate, params, model: inner }) => {
      const stepper = stepperOf();
      if (!stepper) return doGenerate();
      // Stop while a tool was paused: the SDK made that a tool-error and went on; the next model call ends the loop.
      if (stepper.abort.signal.aborted) return Promise.reject(stepper.abort.signal.reason);
      const pauses = modelCallPauses(stepper);
      if (!pauses) return doGenerate();
      return modelStep({ stepper, params, turn: pauses.turn }).then((step) => {
        if (step.kind === 'answer') return handWrittenResult(step.parts);
        return step.params === params ? doGenerate() : inner.doGenerate(step.params);
      });
    },
    wrapStream: ({ doStream, params, model: inner }) => {
      const stepper = stepperOf();
      if (!stepper) return doStream();
      if (stepper.abort.signal.aborted) return Promise.reject(stepper.abort.signal.reason);
      const pauses = modelCallPauses(stepper);
      if (!pauses) return doStream();
      return modelStep({ stepper, params, turn: pauses.turn }).then((step) => {
        if (step.kind === 'answer') return { stream: handWrittenStream(step.parts) };
        return step.params === params ? doStream() : inner.doStream(step.params);
      });
    },
  };
}

/** The model wrapped with the SDK's `wrapLanguageModel`: it pauses before each call (`doGenerate` for generateText, `doStream` for streamText). */
export function stepLanguageModel({ model, stepper }: { model: LanguageModelV4; stepper: RunStepper }): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: stepMiddleware(() => stepper) });
}

type Execute = NonNullable<Tool['execute']>;

/**
 * Runs `execute` with a signal that fires when the tool time limit passes — started now, so a
 * pause does not count against it (the SDK's own `timeout.toolMs` starts before `execute` is
 * called) — or when the run is stopped. One controller and one timer rather than
 * `AbortSignal.any`, several times slower on Node 20, per tool call (bench/ai-sdk-step-overhead.bench.ts).
 */
async function executeWithinLimit({ execute, input, options, stepper, toolTimeoutMs }: { execute: Execute; input: unknown; options: ToolExecutionOptions<unknown>; stepper: AiSdkStepper; toolTimeoutMs?: number }) {
  const controller = new AbortController();
  const timer = toolTimeoutMs ? setTimeout(() => controller.abort(new DOMException(`The tool did not finish within ${toolTimeoutMs} ms.`, 'TimeoutError')), toolTimeoutMs) : undefined;
  const stop = stepper.abort.signal;
  const onStop = () => controller.abort(stop.reason);
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });
  try {
    return await execute(input, { ...options, abortSignal: controller.signal });
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}

function steppedExecute({ name, execute, stepperOf, toolTimeoutMs }: { name: string; execute: Execute; stepperOf: StepperOf; toolTimeoutMs?: number }): Execute {
  return (input, options) => {
    const stepper = stepperOf();
    // Not a stepped call: the tool as the app wrote it.
    if (!stepper) return execute(input, options);
    // No pause wanted: straight to the tool, nothing awaited in between.
    return stepper.wantsToolPause(name) ? pausedExecute({ name, execute, stepper, toolTimeoutMs })(input, options) : executeWithinLimit({ execute, input, options, stepper, toolTimeoutMs });
  };
}

/** Pauses before the tool runs and carries out the decision. */
function pausedExecute({ name, execute, stepper, toolTimeoutMs }: { name: string; execute: Execute; stepper: AiSdkStepper; toolTimeoutMs?: number }) {
  return async (input: unknown, options: ToolExecutionOptions<unknown>) => {
    const decision = await stepper.pause({ kind: 'tool', tool: { name, ref: options.toolCallId, input }, actions: AI_SDK_TOOL_ACTIONS });
    // The SDK runs `execute` inside its `execute_tool` span's context.
    const span = trace.getActiveSpan();
    switch (decision.action) {
      case 'edit-input':
        // The span records what the tool ran with; the model's own arguments are kept beside it.
        span?.setAttributes({ [AI_SDK_STEP_MARKERS.modelArguments]: JSON.stringify(input), 'gen_ai.tool.call.arguments': JSON.stringify(decision.input) });
        return executeWithinLimit({ execute, input: decision.input, options, stepper, toolTimeoutMs });
      case 'answer':
        span?.setAttribute(AI_SDK_STEP_MARKERS.answeredByHand, 'true');
        return decision.output;
      case 'fail':
        throw new Error(decision.message);
      default:
        return executeWithinLimit({ execute, input, options, stepper, toolTimeoutMs });
    }
  };
}

/**
 * The tools with each `execute` wrapped to pause first. Tools without `execute` (handed back to
 * the caller) and provider-executed calls never run here, so they never pause. A tool whose
 * `execute` streams preliminary results (an async iterable) is left unwrapped: an async wrapper
 * would hand the SDK the iterable as the final output.
 */
export function stepTools({ tools, stepper, toolTimeoutMs }: { tools: ToolSet; stepper: RunStepper; toolTimeoutMs?: number }): ToolSet {
  return stepToolsOf({ tools, stepperOf: () => stepper, toolTimeoutMs });
}

/** `stepTools` for tools that serve many calls: each execution pauses when `stepperOf` finds the stepper of its call. */
export function stepToolsOf<TOOLS extends ToolSet>({ tools, stepperOf, toolTimeoutMs }: { tools: TOOLS; stepperOf: StepperOf; toolTimeoutMs?: number }): TOOLS {
  const stepped: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    const streams = execute !== undefined && (execute as { constructor?: { name?: string } }).constructor?.name === 'AsyncGeneratorFunction';
    stepped[name] = execute && !streams ? ({ ...tool, execute: steppedExecute({ name, execute, stepperOf, toolTimeoutMs }) } as Tool) : tool;
  }
  return stepped as TOOLS;
}

/**
 * What `generateText` gets for a stepped call: the wrapped model and tools, and no SDK tool time
 * limit — the wrapped tools start theirs after the pause. Stop reaches the loop through the
 * hooks, not the SDK's `abortSignal`: a paused hook fails, the next model call fails before it
 * is made, and a running tool's signal fires. (Given to the SDK, the signal is merged and
 * listened to at every step and tool: a cost paid on every call of a run that never pauses, for
 * the scripted model, which has no request in flight to abort.)
 */
export function steppedCall({ model, tools, stepper, toolTimeoutMs }: { model: LanguageModelV4; tools: ToolSet; stepper: RunStepper; toolTimeoutMs?: number }) {
  return { model: stepLanguageModel({ model, stepper }), tools: stepTools({ tools, stepper, toolTimeoutMs }) };
}
