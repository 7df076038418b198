/**
 * Replays a genkit Go recording in the Go runner, with genkit Go's own loop: each recorded
 * generate is sent as its recorded GenerateActionOptions (go/runner/replay.go runs them with
 * genkit.GenerateWithRequest, the call genkit.Generate makes), on a genkit instance whose models
 * answer from the recorded model spans and whose tools play back the recorded tool spans (or are
 * the real tools of tools/go/ with live tools). Every model request and tool call the Go loop
 * makes comes back here and goes through the one replay session (lib/replay/replay-session.ts):
 * the same comparisons, the same divergences by call and field, the same report as a genkit JS or
 * AI SDK replay. A resume sends its recorded resume parts after the history its replayed parent
 * produced, and its root span links to that parent, as a live resume's does.
 */
import { jsonCopy } from '../../../spans/json-value';
import type { GenerateStep, Recording, RecordedToolExecution, StepOutcome } from '../../genkit-js/read/recording';
import { alignToRecordedOrder } from '../read/request-order';
import { replayEachStep } from '../../../replay/replay-each-step';
import type { ReplayMode, ReplayReport } from '../../../replay/replay-report';
import { ReplaySession, replayReport, type ReplayOverrides } from '../../../replay/replay-session';
import { messagesFor } from '../../genkit-js/replay/run-replay';
import type { GoReplayAnswer, GoReplayCall, GoReplayStepCommand, GoReplayStepResult } from '../run/go-runner';

/** What runs a replayed generate: the Go runner (go-runner.ts), or the server's queue in front of it. */
export interface GoReplayRunner {
  replayStep(command: GoReplayStepCommand, onCall: (call: GoReplayCall) => GoReplayAnswer): Promise<GoReplayStepResult>;
}

export interface GoReplayOptions {
  runner: GoReplayRunner;
  mode?: ReplayMode;
  /** Run the real tools of tools/go/ (compared with the recording) instead of the stubs. */
  liveTools?: boolean;
  overrides?: ReplayOverrides;
}

/** Answers one call of the Go loop from the session; a thrown stop or recorded failure is an error the Go side raises. */
function answerCall({ session, call, live, step, modelCalls }: { session: ReplaySession; call: GoReplayCall; live: Map<string, RecordedToolExecution>; step: GenerateStep; modelCalls: { made: number } }): GoReplayAnswer {
  try {
    if (call.call === 'model') {
      // The recorded call the session compares this one with is the step's next.
      const recorded = step.modelCalls[modelCalls.made]?.request;
      modelCalls.made += 1;
      return { response: session.answerModel(alignToRecordedOrder({ recorded, replayed: call.request }), call.span) };
    }
    if (call.call === 'tool') {
      const recorded = session.takeTool({ name: call.name, input: call.input, replayedSpan: call.span })!;
      if (!call.live) return { outcome: session.outcomeOf(recorded) };
      live.set(call.callId, recorded);
      const override = session.overrideOf(recorded);
      return override?.kind === 'output' ? { outcome: override } : { run: true };
    }
    const recorded = live.get(call.of);
    if (recorded) session.compareToolOutcome({ recorded, actual: call.outcome, replayedSpan: call.span });
    return {};
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function outcomeOf(result: GoReplayStepResult): StepOutcome {
  if (result.failure || !result.outcome) return { kind: 'error', message: result.failure?.message ?? 'The Go runner returned no outcome.' };
  if (result.outcome.finishReason === 'interrupted') return { kind: 'interrupted', message: result.message };
  return { kind: 'finished', finishReason: result.outcome.finishReason, message: result.message };
}

/** The recorded options with the history this replay sends (the options are never mutated). */
function stepOptions(step: GenerateStep, messages: unknown[]): Record<string, unknown> {
  return { ...jsonCopy(step.options), messages };
}

/**
 * Replays every step of a genkit Go recording in causal order in the Go runner.
 * @returns the report (the same as genkit JS's) and every trace the replay recorded, in order.
 */
export async function replayGoRecording(recording: Recording, options: GoReplayOptions): Promise<{ report: ReplayReport; traceIds: string[] }> {
  const started = performance.now();
  const mode = options.mode ?? 'strict';
  const session = new ReplaySession(mode, options.overrides);
  const histories = new Map<number, { pristine: unknown[] }>();
  const sent = new Map<number, unknown[]>();
  const traceIds: string[] = [];
  const models = [...recording.models].sort();
  const tools = [...recording.toolDefinitions.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((definition) => ({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema, outputSchema: definition.outputSchema, metadata: definition.metadata }));
  const results = await replayEachStep({
    session,
    steps: recording.steps,
    replayStep: async (step, link) => {
      // genkit Go has no action to run a tool alone for a replay; 1.4's restarted tools (their own
      // trace) are read into their resume, so this is a tool an app ran by itself.
      if (step.kind === 'tool') return { replayed: { kind: 'error', message: `A genkit Go tool run on its own (${step.name}) is not replayed: only generate calls are.` } };
      const messages = messagesFor({ step, histories, sent });
      sent.set(step.index, messages.value);
      const live = new Map<string, RecordedToolExecution>();
      const modelCalls = { made: 0 };
      const result = await options.runner.replayStep(
        {
          options: stepOptions(step, messages.value),
          models,
          tools,
          liveTools: options.liveTools,
          ...(link.answers ? { answers: link.answers } : {}),
          replays: link.replays,
        },
        (call) => answerCall({ session, call, live, step, modelCalls }),
      );
      for (const traceId of result.traceIds ?? []) if (!traceIds.includes(traceId)) traceIds.push(traceId);
      if (result.rootSpan) link.onRootSpan(result.rootSpan);
      if (result.outcome) histories.set(step.index, { pristine: jsonCopy(result.outcome.messages) });
      return { replayed: outcomeOf(result), history: messages.source };
    },
  });
  return { report: replayReport({ session, mode, liveTools: options.liveTools === true, steps: results, startedAt: started, spanCount: recording.spanCount }), traceIds };
}
