import { generateMiddleware, type GenkitBeta, type MessageData, type Part, type ToolRequestPart as GenkitToolRequestPart, type ToolResponsePart } from 'genkit/beta';
import { genkitModelName } from '../../../contract/provider';
import { errorMessage } from '../../../errors';
import type { GenerateCommand, GenerateFailure, GenerateOutcome, ResumeRequest } from '../../../runner/runner-protocol';
import { traceGenerate, type SpanRef } from '../../../runner/answer-link';
import { stepHooks } from './genkit-step-middleware';
import { STEP_MIDDLEWARE } from '../../../contract/attach-step';
import type { RunStepper } from '../../../runner/run-stepper';
import { scriptedModelName, type GenkitScenario } from '../../../runner/scenario';
import { withToolRequest } from './tool-request-context';
import { ToolDeadlines } from '../../../runner/tool-deadlines';

class ToolTimeoutError extends Error {
  readonly status = 'DEADLINE_EXCEEDED';
  constructor({ toolName, ref, limitMs }: { toolName: string; ref: string | undefined; limitMs: number }) {
    super(
      `Tool '${toolName}${ref ? `#${ref}` : ''}' did not finish within ${limitMs} ms ` +
        `(the limit is set by LOOPSCOPE_TOOL_TIMEOUT_MS).`,
    );
    this.name = 'ToolTimeoutError';
  }
}

type ToolHook = NonNullable<ReturnType<Parameters<typeof generateMiddleware>[1]>['tool']>;

/**
 * The runner's genkit middleware, one layer: a run's step hooks (when it has a stepper) around
 * the tool time limit, so a pause does not count against a tool's limit. One layer, not one per
 * concern: each layer genkit goes through on every model call and tool execution cost a
 * 20-round loop ≈0.3 ms of the runner's 8 a run (bench/runner-process-overhead.bench.ts). A tool past
 * the limit fails its call; a busy loop blocks the event loop and never reaches the timer: the
 * server's heartbeat catches that case and replaces the runner. The tool runs inside its
 * request's context, so its span's start carries its input and ref.
 */
export function runnerMiddleware(options: { ai: GenkitBeta; toolTimeoutMs: number; stepper?: RunStepper; abortSignal?: AbortSignal }) {
  const limitMs = options.toolTimeoutMs;
  const limit = ToolDeadlines.forLimit(limitMs);
  const step = options.stepper ? stepHooks(options.ai, options.stepper) : undefined;
  const { abortSignal } = options;
  const timed = ([request, context, next]: Parameters<ToolHook>) =>
    // Stopped: no tool starts (genkit hands its abort signal to models, never to tools), so the loop ends here.
    abortSignal?.aborted
      ? Promise.reject(abortSignal.reason)
      : withToolRequest(request.toolRequest, () =>
          limit.run(
            () => next(request, context),
            () => new ToolTimeoutError({ toolName: request.toolRequest.name, ref: request.toolRequest.ref, limitMs }),
          ),
        );
  // A run that is not stepped keeps the name its recordings have always shown (export-repro's `leftOut`).
  return generateMiddleware({ name: step ? STEP_MIDDLEWARE : 'loopscope/tool-timeout' }, () => ({
    model: step?.model,
    // eslint-disable-next-line @typescript-eslint/max-params -- genkit's middleware hook signature
    tool: (request, context, next) =>
      step ? step.tool!(request, context, (stepped, steppedContext) => timed([stepped ?? request, steppedContext ?? context, next])) : timed([request, context, next]),
  }));
}

type ToolRequestPart = Part & { toolRequest: { name: string; ref?: string; input?: unknown } };

function lastModelToolRequests(messages: MessageData[]): ToolRequestPart[] {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'model') return [];
  return last.content.filter((part): part is ToolRequestPart => part.toolRequest !== undefined);
}

interface ToolBuilders {
  respond(interrupt: Part, output: unknown): ToolResponsePart;
  restart(interrupt: Part, resumedMetadata?: unknown, options?: { replaceInput?: unknown }): GenkitToolRequestPart;
}

/**
 * Turns a resume request (name + ref + answer) into the parts genkit expects, using the
 * tool's own `respond` / `restart` builders where the tool is registered here.
 */
async function buildResumeParts({ ai, messages, resume }: { ai: GenkitBeta; messages: MessageData[]; resume: ResumeRequest }) {
  const requests = lastModelToolRequests(messages);
  const find = (name: string, ref: string | undefined) => {
    const part = requests.find((candidate) => candidate.toolRequest.name === name && candidate.toolRequest.ref === ref);
    if (!part) {
      throw Object.assign(new Error(`The last model message has no tool request '${name}${ref ? `#${ref}` : ''}' to answer.`), {
        status: 'INVALID_ARGUMENT',
      });
    }
    return part;
  };
  const lookup = async (name: string) => (await ai.registry.lookupAction(`/tool/${name}`)) as unknown as ToolBuilders | undefined;

  const respond: ToolResponsePart[] = [];
  for (const answer of resume.respond ?? []) {
    const interrupt = find(answer.name, answer.ref);
    const tool = await lookup(answer.name);
    // Respond needs no local tool: the part is data. With the tool, genkit validates the output.
    respond.push(
      tool
        ? tool.respond(interrupt, answer.output)
        : { toolResponse: { name: answer.name, ref: answer.ref, output: answer.output }, metadata: { interruptResponse: true } },
    );
  }
  const restart: GenkitToolRequestPart[] = [];
  for (const answer of resume.restart ?? []) {
    const interrupt = find(answer.name, answer.ref);
    const tool = await lookup(answer.name);
    if (!tool) {
      throw Object.assign(new Error(`Cannot restart '${answer.name}': no tool of that name is registered in tools/.`), {
        status: 'FAILED_PRECONDITION',
      });
    }
    restart.push(
      tool.restart(interrupt, answer.resumed, answer.replaceInput !== undefined ? { replaceInput: answer.replaceInput } : undefined),
    );
  }
  return { respond, restart };
}

function toFailure(error: unknown): GenerateFailure {
  const status = (error as { status?: unknown }).status;
  return {
    message: errorMessage(error),
    status: typeof status === 'string' ? status : undefined,
    name: error instanceof Error ? error.name : undefined,
  };
}

/** Runs one generate call of a scenario (a fresh run, or a resume of a given history). */
export async function runGenerate(options: {
  ai: GenkitBeta;
  scenarios: ReadonlyMap<string, GenkitScenario>;
  command: GenerateCommand;
  toolTimeoutMs: number;
  /** Present for a run in step or breakpoint mode (or run mode with the hooks installed). */
  stepper?: RunStepper;
  /** The user's Stop (request-stop.ts): genkit's own abort signal, and no tool starts once it fired. */
  abortSignal?: AbortSignal;
}): Promise<{ outcome?: GenerateOutcome; failure?: GenerateFailure; rootSpan?: SpanRef }> {
  const { ai, command } = options;
  let rootSpan: SpanRef | undefined;
  const scenario = options.scenarios.get(command.scenario);
  if (!scenario && !command.model) return { failure: { message: `No scenario named "${command.scenario}" in tools/scenarios/.`, status: 'NOT_FOUND' } };
  try {
    // genkit 1.42 rewrites the caller's messages on resume (docs/interrupt-model.md §7 bug 3): copy first.
    const messages = command.messages ? (structuredClone(command.messages) as MessageData[]) : undefined;
    const resume = command.resume && messages ? await buildResumeParts({ ai, messages, resume: command.resume }) : undefined;
    // A resume links its root span to the interrupted generate it answers (answer-link.ts).
    // A real provider plays the scenario's prompt and tools (and a resume of its run) instead of the script.
    // The runner's provider plugins resolve it (provider-model.ts).
    const model = command.provider ? genkitModelName(command.provider) : (command.model ?? scriptedModelName(scenario!.name));
    const response = await traceGenerate({ answers: command.answers, onRootSpan: (root) => (rootSpan = root) }, () => ai.generate({
      model,
      ...(messages ? { messages } : { prompt: scenario?.prompt ?? '' }),
      tools: command.tools ?? scenario?.tools ?? [],
      maxTurns: scenario?.maxTurns,
      resume,
      use: [runnerMiddleware({ ai, toolTimeoutMs: options.toolTimeoutMs, stepper: options.stepper, abortSignal: options.abortSignal })()],
      abortSignal: options.abortSignal ?? options.stepper?.abort.signal,
    }));
    return {
      rootSpan,
      outcome: {
        finishReason: response.finishReason,
        text: response.text,
        interrupts: response.interrupts,
        messages: response.messages,
      },
    };
  } catch (error) {
    return { failure: toFailure(error), rootSpan };
  }
}
