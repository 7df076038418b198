/**
 * A stepped generate in an attached genkit JS app (issue 16, item 4): a run like a scenario's —
 * the run page, its pauses, Step / Continue / Stop, breakpoints — whose generate runs in the app,
 * with the app's model and tools, through its reflection API (`/util/generate`). The app's step
 * middleware (`plugins: [loopscope()]`, lib/runtimes/genkit-js/app-plugin) holds it at each model call and
 * tool execution its mode asks for; AttachedSteps holds the pauses on this side.
 */
import type { RunMode } from '../../contract/run-mode';
import type { RunSession } from '../../contract/run-session';
import type { RuntimeAction } from '../../contract/runtimes';
import type { ListedTool } from '../../contract/tool-info';
import { exampleFromSchema } from '../../loop/example-from-schema';
import { LoopscopeError, errorMessage } from '../../errors';
import { findAction } from '../../runtimes/genkit-reflection/reflection-actions';
import { readRunActionAnswer } from '../../runtimes/genkit-reflection/run-action-answer';
import { STEP_CONTEXT_KEY, STEP_MIDDLEWARE } from '../../contract/attach-step';
import type { AppContext } from '../app-context-ports';
import type { GenerateResult } from '../../runner/run-requests';
import { attachedRuntime } from './attach-service';
import { ATTACHED_KINDS } from '../../runtimes/genkit-reflection/attached-kinds';

/** The apps Loopscope's step plugin exists for, in words (`genkit JS`). */
const stepKinds = () => Object.values(ATTACHED_KINDS).filter((kind) => kind.stepPlugin).map((kind) => kind.title).join(' and ');

/** How long a stepped generate may take in all, pauses included (the reflection call stays open meanwhile). */
const STEPPED_GENERATE_TIMEOUT_MS = 60 * 60_000;
/** How long the run waits for the trace's root span after the app answered. */
const TRACE_ARRIVAL_TIMEOUT_MS = 5_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The final message's interrupted tool requests (genkit marks them `metadata.interrupt`). */
function interruptsOf(output: unknown): unknown[] {
  const content = isRecord(output) && isRecord(output.message) && Array.isArray(output.message.content) ? output.message.content : [];
  return content.filter((part) => isRecord(part) && isRecord(part.toolRequest) && isRecord(part.metadata) && part.metadata.interrupt !== undefined);
}

function textOf(output: unknown): string | undefined {
  const content = isRecord(output) && isRecord(output.message) && Array.isArray(output.message.content) ? output.message.content : [];
  const text = content.flatMap((part) => (isRecord(part) && typeof part.text === 'string' ? [part.text] : [])).join('');
  return text || undefined;
}

/**
 * The app's tools a generate offers (`tools`: names or action keys), as the step panel lists
 * them: schemas from the app's action list, examples built from them.
 */
function offeredTools(options: { actions: RuntimeAction[]; tools: unknown; projectDir: string }): ListedTool[] {
  const names = Array.isArray(options.tools) ? options.tools.filter((tool): tool is string => typeof tool === 'string') : [];
  return names.flatMap((name) => {
    const action = options.actions.find((candidate) => candidate.type === 'tool' && (candidate.key === name || candidate.name === name));
    if (!action) return [];
    return [
      {
        name: action.name,
        description: action.description ?? '',
        inputSchema: action.inputSchema,
        outputSchema: action.outputSchema,
        file: options.projectDir,
        inputExample: exampleFromSchema(action.inputSchema),
        outputExample: exampleFromSchema(action.outputSchema),
      },
    ];
  });
}

/** What a stepped run of the app runs: a generate (`/util/generate`) or one of its flows. */
interface SteppedTarget {
  key: string;
  label: string;
  /** The generate's model, when it names one. */
  model?: string;
  /** The tool names the step panel offers (a generate's own; every tool of the app for a flow). */
  tools: unknown;
  /** How the step config reaches the middleware: in the generate's `use`, or in the flow's action context. */
  carry: (config: { runId: string; url: string; token: string }) => { input: unknown; context?: Record<string, unknown> };
}

/** @throws LoopscopeError INVALID_ARGUMENT for a generate input that is not an object, NOT_FOUND / INVALID_ARGUMENT for an action that is no flow. */
function steppedTarget(options: { action: string; input: unknown; actions: RuntimeAction[]; runtimeName: string }): SteppedTarget {
  const { action, input, actions, runtimeName } = options;
  if (action === '/util/generate' || action === 'generate') {
    if (!isRecord(input)) throw new LoopscopeError('INVALID_ARGUMENT', "A generate's input must be an object (genkit's GenerateActionOptions: model, messages, tools, …).");
    const model = typeof input.model === 'string' ? input.model : undefined;
    return {
      key: '/util/generate',
      label: `${runtimeName}: generate with ${model ?? 'its default model'}`,
      ...(model ? { model } : {}),
      tools: input.tools,
      carry: (config) => ({ input: { ...input, use: [...(Array.isArray(input.use) ? input.use : []), { name: STEP_MIDDLEWARE, config }] } }),
    };
  }
  const found = findAction(actions, action);
  if (!found) throw new LoopscopeError('NOT_FOUND', `The app ${runtimeName} has no action "${action}".`);
  if (found.type !== 'flow') throw new LoopscopeError('INVALID_ARGUMENT', `Only a generate (/util/generate) or a flow can be stepped, not the ${found.type} ${found.key}: run it without mode.`);
  return {
    key: found.key,
    label: `${runtimeName}: flow ${found.name}`,
    tools: actions.filter((candidate) => candidate.type === 'tool').map((tool) => tool.name),
    // genkit hands a flow's action context on to every generate inside it; the plugin steps those.
    carry: (config) => ({ input, context: { [STEP_CONTEXT_KEY]: config } }),
  };
}

/** The final answer of a generate's output (`message.content` text) or a flow's (`text`, when it returns one). */
function finalText(output: unknown): string | undefined {
  return textOf(output) ?? (isRecord(output) && typeof output.text === 'string' ? output.text : undefined);
}

/**
 * Starts a stepped generate — or a flow, whose generates are stepped — in the app and answers at
 * once with its run (progress on the event stream, as for a scenario's run).
 * @throws LoopscopeError NOT_FOUND (unknown runtime or action), FAILED_PRECONDITION (the app has no Loopscope plugin, or is not genkit JS), INVALID_ARGUMENT (a bad input, an action that is no flow).
 */
export async function startAttachedStepRun(options: { context: AppContext; runtimeId: string; action: string; input: unknown; mode: RunMode }): Promise<RunSession> {
  const { context, mode } = options;
  const runtime = attachedRuntime(context.attachment, options.runtimeId);
  if (!ATTACHED_KINDS[runtime.runtime].stepPlugin) throw new LoopscopeError('FAILED_PRECONDITION', `Step and breakpoints work in ${stepKinds()} apps; ${runtime.name} is ${runtime.runtime}.`);
  const { actions } = await context.attachment.registry.describe(runtime);
  const target = steppedTarget({ action: options.action, input: options.input, actions, runtimeName: runtime.name });
  const middleware = await runtime.reflection.listValues('middleware');
  if (!(STEP_MIDDLEWARE in middleware)) {
    throw new LoopscopeError(
      'FAILED_PRECONDITION',
      `The app ${runtime.name} has no Loopscope step plugin: add \`plugins: [loopscope()]\` (import { loopscope } from 'loopscope/genkit') to its genkit({...}) and restart it, to step its generates.`,
    );
  }
  const app = { runtimeId: runtime.id, runtimeName: runtime.name, ...(target.model ? { model: target.model } : {}), tools: offeredTools({ actions, tools: target.tools, projectDir: runtime.projectDir }) };
  const run = context.runs.create({ label: target.label, mode, app });
  const token = context.attachedSteps.open(run.runId, mode);
  const carried = target.carry({ runId: run.runId, url: `http://127.0.0.1:${context.config.port}`, token });
  void runtime.reflection
    .runAction({ key: target.key, ...carried, timeoutMs: STEPPED_GENERATE_TIMEOUT_MS })
    .then(async ({ body, headerTraceId }): Promise<GenerateResult> => {
      const answer = readRunActionAnswer({ body, headerTraceId });
      const traceIds = answer.traceId ? [answer.traceId] : [];
      // The run is done once its trace is stored (the app's spans come through the genkit telemetry door).
      if (answer.traceId) await context.attachment.arrivals.rootArrived({ traceId: answer.traceId, timeoutMs: TRACE_ARRIVAL_TIMEOUT_MS });
      if (answer.outcome === 'error') return { traceIds, failure: { message: answer.error?.message ?? 'The run failed.', status: answer.error?.code } };
      const output = answer.output;
      const finishReason = answer.outcome === 'interrupted' ? 'interrupted' : isRecord(output) && typeof output.finishReason === 'string' ? output.finishReason : undefined;
      return { traceIds, outcome: { finishReason, text: finalText(output), interrupts: interruptsOf(output), messages: [] } };
    })
    .catch((error: unknown): GenerateResult => ({ traceIds: [], failure: { message: errorMessage(error), status: error instanceof LoopscopeError ? error.code : undefined } }))
    .then((result) => {
      context.attachedSteps.close(run.runId);
      context.runs.complete(run.runId, result);
    });
  return run;
}
