/**
 * A stepped generate in an attached genkit JS app (issue 16, item 4): a run like a scenario's —
 * the run page, its pauses, Step / Continue / Stop, breakpoints — whose generate runs in the app,
 * with the app's model and tools, through its reflection API (`/util/generate`). The app's step
 * middleware (`plugins: [loopscope()]`, lib/runtime/app-plugin) holds it at each model call and
 * tool execution its mode asks for; AttachedSteps holds the pauses on this side.
 */
import type { RunMode } from '../../contract/run-mode';
import type { RunSession } from '../../contract/run-session';
import type { RuntimeAction } from '../../contract/runtimes';
import type { ListedTool } from '../../contract/tool-info';
import { exampleFromSchema } from '../../resume/example-from-schema';
import { LoopscopeError, errorMessage } from '../../errors';
import { readRunActionAnswer } from '../../dialects/genkit-reflection/run-action-answer';
import { STEP_MIDDLEWARE } from '../../runtime/genkit-step-middleware';
import type { AppContext } from '../app-context';
import type { GenerateResult } from '../runner-process';
import { attachedRuntime } from './attach-service';
import { fetchReflectionValues, runReflectionAction } from './reflection-client';

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

/**
 * Starts the generate and answers at once with its run (progress on the event stream, as for a
 * scenario's run).
 * @throws LoopscopeError NOT_FOUND (unknown runtime), FAILED_PRECONDITION (the app has no Loopscope plugin), INVALID_ARGUMENT (input not an object).
 */
export async function startAttachedGenerate(options: { context: AppContext; runtimeId: string; input: unknown; mode: RunMode }): Promise<RunSession> {
  const { context, input, mode } = options;
  const runtime = attachedRuntime(context.attachment, options.runtimeId);
  if (!isRecord(input)) throw new LoopscopeError('INVALID_ARGUMENT', 'A generate\'s input must be an object (genkit\'s GenerateActionOptions: model, messages, tools, …).');
  if (runtime.runtime !== 'genkit-js') throw new LoopscopeError('FAILED_PRECONDITION', `Step and breakpoints work in genkit JS apps; ${runtime.name} is ${runtime.runtime}.`);
  const middleware = await fetchReflectionValues({ url: runtime.url, type: 'middleware' });
  if (!(STEP_MIDDLEWARE in middleware)) {
    throw new LoopscopeError(
      'FAILED_PRECONDITION',
      `The app ${runtime.name} has no Loopscope step plugin: add \`plugins: [loopscope()]\` (import { loopscope } from 'loopscope/genkit') to its genkit({...}) and restart it, to step its generates.`,
    );
  }
  const model = typeof input.model === 'string' ? input.model : 'its default model';
  const { actions } = await context.attachment.registry.describe(runtime);
  const app = { runtimeId: runtime.id, runtimeName: runtime.name, ...(typeof input.model === 'string' ? { model: input.model } : {}), tools: offeredTools({ actions, tools: input.tools, projectDir: runtime.projectDir }) };
  const run = context.runs.create({ label: `${runtime.name}: generate with ${model}`, mode, app });
  const token = context.attachedSteps.open(run.runId, mode);
  const use = [...(Array.isArray(input.use) ? input.use : []), { name: STEP_MIDDLEWARE, config: { runId: run.runId, url: `http://127.0.0.1:${context.config.port}`, token } }];
  void runReflectionAction({ url: runtime.url, key: '/util/generate', input: { ...input, use }, timeoutMs: STEPPED_GENERATE_TIMEOUT_MS })
    .then(async ({ body, headerTraceId }): Promise<GenerateResult> => {
      const answer = readRunActionAnswer({ body, headerTraceId });
      const traceIds = answer.traceId ? [answer.traceId] : [];
      // The run is done once its trace is stored (the app's spans come through the genkit telemetry door).
      if (answer.traceId) await context.attachment.arrivals.rootArrived({ traceId: answer.traceId, timeoutMs: TRACE_ARRIVAL_TIMEOUT_MS });
      if (answer.outcome === 'error') return { traceIds, failure: { message: answer.error?.message ?? 'The generate failed.', status: answer.error?.code } };
      const output = answer.output;
      return {
        traceIds,
        outcome: { finishReason: isRecord(output) && typeof output.finishReason === 'string' ? output.finishReason : undefined, text: textOf(output), interrupts: interruptsOf(output), messages: [] },
      };
    })
    .catch((error: unknown): GenerateResult => ({ traceIds: [], failure: { message: errorMessage(error), status: error instanceof LoopscopeError ? error.code : undefined } }))
    .then((result) => {
      context.attachedSteps.close(run.runId);
      context.runs.complete(run.runId, result);
    });
  return run;
}
