/**
 * Replays a toy loop recording with the toy loop itself: each recorded call plays again with a
 * model that answers from its recorded turns after the replay's session compared the request it
 * was sent with the recorded one, and tools that play back their recorded runs (no tool function
 * runs) — or, with live tools, the toy's tool functions, compared with the recording. An
 * answering call goes on from the history its parent call ended with in this replay, with its
 * recorded answers. The same report as every runtime's replay (lib/replay/replay-session.ts).
 */
import { trace } from '@opentelemetry/api';
import type { SpanRef } from '../../../loop/recorded-calls';
import { replayEachStep, untraced, type TraceGenerate } from '../../../replay/replay-each-step';
import type { ReplayMode, ReplayReport } from '../../../replay/replay-report';
import { ReplaySession, ReplayStopped, replayReport, type ReplayOverrides } from '../../../replay/replay-session';
import type { ToyRecordedCall, ToyRecording } from '../read/recording';
import type { ToyMessage, ToyReply, ToyRequest } from '../read/toy-words';
import { playToyLoop, type ToyLoopOptions } from '../run/play-toy-loop';
import { runToyTool, type ToyToolOutcome } from '../run/toy-tools';

export interface ToyReplayOptions {
  mode?: ReplayMode;
  /** Run the toy's tool functions instead of playing their recorded runs back (compared with the recording). */
  liveTools?: boolean;
  /** Fork: recorded answers replaced, by recorded span (`traceId:spanId`). */
  overrides?: ReplayOverrides;
  /** Wraps each replayed call so its root span links to the recorded call it replays and to the replayed call it answers (lib/runner/answer-link.ts). */
  traceGenerate?: TraceGenerate;
}

/** The span running now (a `think` or `tool` span), to name in a divergence. */
function activeSpan(): SpanRef | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && !/^0+$/.test(context.traceId) ? { traceId: context.traceId, spanId: context.spanId } : undefined;
}

/** The model: each turn's recorded reply, once the session compared the request with the recorded one. */
function recordedModel({ step, session }: { step: ToyRecordedCall; session: ReplaySession }): ToyLoopOptions['model'] {
  return {
    name: step.model,
    async answer(request) {
      if (session.stopped) throw new ReplayStopped(session.stopped);
      return session.answerModel(request, activeSpan()) as ToyReply;
    },
  };
}

/** The tools: each call's recorded run played back (a fork's replacement first), or the live function compared with it. */
function recordedTools({ session, live }: { session: ReplaySession; live: boolean }): ToyLoopOptions['runTool'] {
  return async (request: ToyRequest): Promise<ToyToolOutcome> => {
    const recorded = session.takeTool({ name: request.name, input: request.input ?? {}, replayedSpan: activeSpan() });
    if (!recorded) throw new ReplayStopped(session.stopped!);
    const override = session.overrideOf(recorded);
    if (live && !override) {
      const actual = await runToyTool(request);
      session.compareToolOutcome({ recorded, actual: actual.kind === 'error' ? actual : { kind: 'output', output: actual.output } });
      return actual;
    }
    const outcome = session.outcomeOf(recorded);
    return outcome.kind === 'error' ? outcome : { kind: 'output', output: outcome.kind === 'output' ? outcome.output : undefined };
  };
}

/** Replays every call of a toy recording in causal order and compares it with the recording. */
export async function replayToyRecording(recording: ToyRecording, options: ToyReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now();
  const mode = options.mode ?? 'strict';
  const session = new ReplaySession(mode, options.overrides);
  const replayedHistories = new Map<number, ToyMessage[]>();
  const results = await replayEachStep({
    session,
    steps: recording.calls,
    replayStep: async (step, link) => {
      const parent = step.continues === undefined ? undefined : replayedHistories.get(step.continues);
      const history = parent ? 'replayed' : step.continues !== undefined || step.answers ? 'recorded' : undefined;
      try {
        const result = await (options.traceGenerate ?? untraced)(link, () =>
          playToyLoop({
            model: recordedModel({ step, session }),
            runTool: recordedTools({ session, live: options.liveTools === true }),
            tools: step.tools,
            messages: parent ?? step.messages,
            ...(step.answers ? { answers: { respond: step.answers } } : {}),
          }),
        );
        replayedHistories.set(step.index, result.messages);
        return { history, replayed: result.status === 'done' ? { kind: 'finished', finishReason: 'done', message: result.text } : { kind: 'interrupted' } };
      } catch (error) {
        return { history, replayed: { kind: 'error', message: error instanceof Error ? error.message : String(error) } };
      }
    },
  });
  return replayReport({ session, mode, liveTools: options.liveTools === true, steps: results, startedAt: started, spanCount: recording.spanCount });
}
