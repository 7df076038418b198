/**
 * The loop every runtime's replay runs over its recording's steps, in causal order: the
 * session's bookkeeping (a strict replay stopped earlier marks the rest unmatched; each step is
 * begun, then closed with its divergences counted and its outcome compared) and the links of
 * a replayed call's root span — to the recorded call it replays, and to the replayed call it
 * answers, as a live answer is linked. A runtime's replay says only how one step is played.
 */
import type { ReplayStepResult, StepOutcome } from '../contract/replay';
import type { SpanRef } from '../loop/recorded-calls';
import { closeReplayedStep, recordedStepBase } from './compare-outcome';
import type { ReplaySession, SessionStep } from './replay-session';

/** What a replayed call's root span is linked to, and where the replay learns that root. */
export interface ReplayLink {
  /** The replayed root of the call this one continues (an answer's), when that call was replayed. */
  answers?: SpanRef;
  /** The recorded call this one replays. */
  replays: SpanRef;
  onRootSpan: (root: SpanRef) => void;
}

/**
 * Runs one replayed call so that its root span carries the link (in a runner: lib/runner/answer-link.ts
 * `traceGenerate`); a replay outside a runner passes nothing and gets `untraced`.
 */
export type TraceGenerate = <T>(link: ReplayLink, run: () => Promise<T>) => Promise<T>;

/** The call run as it is, no span linked. */
export const untraced: TraceGenerate = (_link, run) => run();

/** A recorded step as the loop needs it: what the session plays, its recorded outcome, and the step it continues. */
export interface ReplayableStep extends SpanRef, SessionStep {
  outcome: StepOutcome;
  /** The index of the step whose pause this one answers. */
  continues?: number;
}

/** How one step played: its outcome, and where the history it sent came from (none for a first call). */
export interface ReplayedStep {
  replayed: StepOutcome;
  history?: ReplayStepResult['history'];
}

/** Replays `steps` one by one through `replayStep` and gives the report's rows, in order. */
export async function replayEachStep<Step extends ReplayableStep>(options: {
  session: ReplaySession;
  steps: readonly Step[];
  replayStep: (step: Step, link: ReplayLink) => Promise<ReplayedStep>;
  /** Told of each step about to be replayed (not of those a strict stop skips). */
  onStep?: (step: Step) => void;
  /** Drops what differs between a recorded and a replayed outcome by nature (ids the runtime made up). */
  comparable?: (outcome: StepOutcome) => StepOutcome;
}): Promise<ReplayStepResult[]> {
  const { session } = options;
  const roots = new Map<number, SpanRef>();
  const results: ReplayStepResult[] = [];
  for (const step of options.steps) {
    const base = recordedStepBase(step);
    if (session.stopped) {
      results.push({ ...base, matched: false });
      continue;
    }
    options.onStep?.(step);
    session.beginStep(step);
    const before = session.divergences.length;
    const link: ReplayLink = {
      answers: step.continues === undefined ? undefined : roots.get(step.continues),
      replays: { traceId: step.traceId, spanId: step.spanId },
      onRootSpan: (root) => roots.set(step.index, root),
    };
    const { replayed, history } = await options.replayStep(step, link);
    results.push(closeReplayedStep({ session, step, base, replayed, history, before, comparable: options.comparable }));
  }
  return results;
}
