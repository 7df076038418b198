/**
 * Replays a recording with the real genkit runtime: a fresh `genkit/beta` instance whose
 * models answer from the recorded model spans and whose tools are stubs that play back the
 * recorded tool spans (or, with live tools, the locally registered tools under a middleware
 * that compares them with the recording). The loop is genkit's own; only the answers come
 * from the recording. Spans go wherever the process's OpenTelemetry provider sends them.
 */
import { trace } from '@opentelemetry/api';
import type { GenkitBeta, MessageData } from 'genkit/beta';
import { jsonCopy } from '../../../spans/json-value';
import type { GenerateStep, Recording, RecordedToolOutcome, ReplayStep, SpanRef, StepOutcome, ToolAloneStep } from '../read/recording';
import type { ReplayMode, ReplayReport, ReplayStepResult } from '../../../replay/replay-report';
import { replayEachStep, untraced, type TraceGenerate } from '../../../replay/replay-each-step';
import { ReplaySession, replayReport, type ReplayOverrides } from '../../../replay/replay-session';

export interface ReplayOptions {
  mode?: ReplayMode;
  /** Registers the local tools on the replay's genkit instance: they run instead of the stubs. */
  liveTools?: (ai: GenkitBeta) => Promise<unknown>;
  /** Fork: answers that replace recorded ones. */
  overrides?: ReplayOverrides;
  /** Called when a step starts (progress for long chains). */
  onStep?: (step: ReplayStep) => void;
  /**
   * Wraps each replayed generate call: the runner passes its tracing here so that a replayed
   * resume's root span links to the replayed generate it continues (lib/runner/answer-link.ts),
   * as a live resume's does. Without it (the CLI, benchmarks) calls run as they are.
   */
  traceGenerate?: TraceGenerate;
}

/** genkit, imported once on first use (a dynamic import per replay goes through the loader again). */
let genkitModule: Promise<typeof import('genkit/beta')> | undefined;
const loadGenkit = () => (genkitModule ??= import('genkit/beta'));


function activeSpan(): SpanRef | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || /^0+$/.test(context.traceId)) return undefined;
  return { traceId: context.traceId, spanId: context.spanId };
}

function isInterrupt(error: unknown): error is Error & { metadata?: unknown } {
  return error instanceof Error && error.name === 'ToolInterruptError';
}

function isStop(error: unknown, session: ReplaySession): boolean {
  return session.stopped !== undefined || (typeof error === 'object' && error !== null && 'replayStopped' in error);
}

/** A genkit instance with the replay's models and tools; `session` is the replay using it now. */
interface ReplayRuntime {
  ai: GenkitBeta;
  current: { session?: ReplaySession };
}

function defineReplayModels(runtime: ReplayRuntime, recording: Recording): void {
  for (const name of recording.models) {
    runtime.ai.defineModel(
      { name, label: `Replay of ${name}`, supports: { tools: true, multiturn: true, systemRole: true, media: true } },
      async (request) => runtime.current.session!.answerModel(request, activeSpan()) as never,
    );
  }
}

function defineToolStubs(runtime: ReplayRuntime, recording: Recording): void {
  for (const definition of recording.toolDefinitions.values()) {
    runtime.ai.defineTool(
      {
        name: definition.name,
        description: definition.description ?? '',
        ...(definition.inputSchema !== undefined ? { inputJsonSchema: definition.inputSchema as never } : {}),
        ...(definition.outputSchema !== undefined ? { outputJsonSchema: definition.outputSchema as never } : {}),
      },
      async (input, ctx) => {
        const session = runtime.current.session!;
        const recorded = session.takeTool({ name: definition.name, input, replayedSpan: activeSpan() });
        const outcome = session.outcomeOf(recorded!);
        if (outcome.kind === 'interrupt') ctx.interrupt(outcome.metadata as Record<string, unknown> | undefined);
        if (outcome.kind === 'error') throw new Error(outcome.message);
        return (outcome as { output: unknown }).output as never;
      },
    );
  }
}

/**
 * Idle stub runtimes by what they define (model names + tool definitions). A genkit instance
 * costs about as much to warm up as a whole short loop, so replaying a recording again (or
 * another one with the same models and tools) reuses one. Live-tools runtimes are not kept.
 */
const idleRuntimes = new Map<string, ReplayRuntime[]>();
const MAX_RUNTIME_KINDS = 16;

async function acquireRuntime(recording: Recording, liveTools: ReplayOptions['liveTools']): Promise<{ runtime: ReplayRuntime; release: () => void }> {
  const { genkit } = await loadGenkit();
  const create = () => ({ ai: genkit({}), current: {} }) as ReplayRuntime;
  if (liveTools) {
    const runtime = create();
    defineReplayModels(runtime, recording);
    await liveTools(runtime.ai);
    return { runtime, release: () => undefined };
  }
  const key = JSON.stringify([[...recording.models].sort(), [...recording.toolDefinitions.values()].sort((a, b) => a.name.localeCompare(b.name))]);
  let runtime = idleRuntimes.get(key)?.pop();
  if (!runtime) {
    runtime = create();
    defineReplayModels(runtime, recording);
    defineToolStubs(runtime, recording);
  }
  const taken = runtime;
  return {
    runtime: taken,
    release: () => {
      taken.current.session = undefined;
      const idle = idleRuntimes.get(key) ?? [];
      if (idle.length < 2) idle.push(taken);
      idleRuntimes.delete(key);
      idleRuntimes.set(key, idle);
      while (idleRuntimes.size > MAX_RUNTIME_KINDS) idleRuntimes.delete(idleRuntimes.keys().next().value as string);
    },
  };
}

/** Live tools: each execution is matched to the recording before it runs and compared after. */
async function liveToolsMiddleware(session: ReplaySession) {
  const { generateMiddleware } = await loadGenkit();
  return generateMiddleware({ name: 'loopscope/replay-compare' }, () => ({
    // eslint-disable-next-line @typescript-eslint/max-params -- genkit's middleware hook signature
    tool: async (request, context, next) => {
      const { name, input } = request.toolRequest;
      const recorded = session.takeTool({ name, input, replayedSpan: activeSpan() });
      const override = recorded ? session.overrideOf(recorded) : undefined;
      if (override?.kind === 'output') return { toolResponse: { name, ref: request.toolRequest.ref, output: override.output } } as never;
      let actual: RecordedToolOutcome;
      try {
        const result = await next(request, context);
        actual = { kind: 'output', output: (result as { toolResponse?: { output?: unknown } })?.toolResponse?.output };
        if (recorded) session.compareToolOutcome({ recorded, actual });
        return result;
      } catch (error) {
        if (isStop(error, session)) throw error;
        actual = isInterrupt(error) ? { kind: 'interrupt', metadata: error.metadata } : { kind: 'error', message: error instanceof Error ? error.message : String(error) };
        if (recorded) session.compareToolOutcome({ recorded, actual });
        throw error;
      }
    },
  }));
}

function outcomeOfError(error: unknown): StepOutcome {
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

async function replayToolAlone(ai: GenkitBeta, step: ToolAloneStep): Promise<StepOutcome> {
  const tool = await ai.registry.lookupAction(`/tool/${step.name}`);
  if (!tool) return { kind: 'error', message: `Tool '${step.name}' is not registered.` };
  try {
    const output = await (tool as unknown as (input: unknown) => Promise<unknown>)(jsonCopy(step.input));
    return { kind: 'finished', finishReason: 'stop', message: output };
  } catch (error) {
    return outcomeOfError(error);
  }
}

/**
 * Replays every step of the recording in causal order. A resume sends the history its parent
 * step produced in this replay (so an early change shows where it matters later); a retry of
 * an earlier resume sends the very same message objects, as a caller retrying does (which is
 * how genkit 1.42's bug 3 bites); without a replayed parent the recorded history is sent.
 */
export async function replayRecording(recording: Recording, options: ReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now();
  const mode = options.mode ?? 'strict';
  const session = new ReplaySession(mode, options.overrides);
  const { runtime, release } = await acquireRuntime(recording, options.liveTools);
  runtime.current.session = session;
  const ai = runtime.ai;
  const use = options.liveTools ? [(await liveToolsMiddleware(session))()] : undefined;
  try {
    return await replaySteps({ recording, options, session, ai, use, started });
  } finally {
    release();
  }
}

/** The steps of one replay, on a runtime already acquired; `use`: the live-tools middleware, `started`: when the replay began. */
async function replaySteps({ recording, options, session, ai, use, started }: {
  recording: Recording;
  options: ReplayOptions;
  session: ReplaySession;
  ai: GenkitBeta;
  use: unknown[] | undefined;
  started: number;
}): Promise<ReplayReport> {
  // The session was made with the replay's mode: one source for it.
  const mode = session.mode;
  const histories = new Map<number, { pristine: unknown[] }>();
  const sent = new Map<number, unknown[]>();
  // Each replayed resume links to the replayed generate it continues, as a live resume would.
  const results = await replayEachStep({
    session,
    steps: recording.steps,
    onStep: options.onStep,
    replayStep: async (step, link) => {
      if (step.kind === 'tool') return { replayed: await replayToolAlone(ai, step) };
      const messages = messagesFor({ step, histories, sent });
      sent.set(step.index, messages.value);
      try {
        const response = await (options.traceGenerate ?? untraced)(link, () =>
          ai.generate({
            ...generateOptions(step),
            messages: messages.value as MessageData[],
            ...(use ? { use: use as never } : {}),
          }),
        );
        const message = response.message?.toJSON();
        histories.set(step.index, { pristine: jsonCopy(response.messages) });
        return { history: messages.source, replayed: response.finishReason === 'interrupted' ? { kind: 'interrupted', message } : { kind: 'finished', finishReason: response.finishReason, message } };
      } catch (error) {
        return { history: messages.source, replayed: outcomeOfError(error) };
      }
    },
  });
  return replayReport({ session, mode, liveTools: options.liveTools !== undefined, steps: results, startedAt: started, spanCount: recording.spanCount });
}

function generateOptions(step: GenerateStep): Record<string, unknown> {
  const options = step.options;
  const pick: Record<string, unknown> = { model: options.model };
  for (const key of ['tools', 'config', 'maxTurns', 'returnToolRequests', 'output', 'docs', 'toolChoice'] as const) {
    if (options[key] !== undefined) pick[key] = jsonCopy(options[key]);
  }
  // The recorded options name tools by action key (`/tool/x`); ai.generate takes the bare name.
  if (Array.isArray(pick.tools)) pick.tools = pick.tools.map((tool) => (typeof tool === 'string' ? tool.replace(/^\/(tool|tool\.v2|prompt)\//, '') : tool));
  if (options.resume !== undefined) pick.resume = jsonCopy(options.resume);
  return pick;
}

/**
 * The history a replayed generate sends (either genkit runtime's): a first call its recorded
 * messages; a resume its replayed parent's history (the retry of an earlier resume the very same
 * messages); without a replayed parent the recorded history.
 */
export function messagesFor({ step, histories, sent }: { step: GenerateStep; histories: Map<number, { pristine: unknown[] }>; sent: Map<number, unknown[]> }): { value: unknown[]; source: ReplayStepResult['history'] } {
  if (step.options.resume === undefined) return { value: jsonCopy(Array.isArray(step.options.messages) ? step.options.messages : []), source: undefined };
  if (step.retryOf !== undefined && sent.has(step.retryOf)) return { value: sent.get(step.retryOf)!, source: 'replayed-retry' };
  const parent = step.continues === undefined ? undefined : histories.get(step.continues);
  if (parent) return { value: jsonCopy(parent.pristine), source: 'replayed' };
  return { value: jsonCopy(step.history ?? []), source: 'recorded' };
}
