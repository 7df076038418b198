import type { SpanRef } from '../loop/recorded-calls';
import type { ReplayStepResult, StepOutcome } from '../contract/replay';
import { firstDifference } from './first-difference';
import type { ReplaySession } from './replay-session';

/**
 * Compares how a step ended with how it ended in the recording (any runtime's step): another
 * outcome or finish reason, another error message, or — when nothing diverged before — another
 * final message. A reproduced failure (same message) is a match.
 */
export function compareOutcome({ session, step, replayed }: { session: ReplaySession; step: SpanRef & { label: string; outcome: StepOutcome }; replayed: StepOutcome }): void {
  const recorded = step.outcome;
  const spans = { recordedSpan: { traceId: step.traceId, spanId: step.spanId } };
  if (recorded.kind !== replayed.kind || (recorded.kind === 'finished' && replayed.kind === 'finished' && recorded.finishReason !== replayed.finishReason)) {
    const say = (outcome: StepOutcome) => (outcome.kind === 'finished' ? `finished (${outcome.finishReason})` : outcome.kind === 'error' ? `failed: ${outcome.message}` : outcome.kind === 'stopped' ? 'stopped' : 'interrupted');
    session.diverge({ kind: 'outcome', call: 'outcome', field: 'outcome', recorded: say(recorded), replayed: say(replayed), message: `${step.label} ${say(replayed)}; the recording ${say(recorded)}.`, ...spans });
    return;
  }
  if (recorded.kind === 'error' && replayed.kind === 'error' && recorded.message !== replayed.message) {
    session.diverge({ kind: 'outcome', call: 'outcome', field: 'error message', recorded: recorded.message, replayed: replayed.message, message: `${step.label} failed with another error than recorded.`, ...spans });
    return;
  }
  if (session.stepDiverged || recorded.kind === 'error' || replayed.kind === 'error' || recorded.kind === 'stopped' || replayed.kind === 'stopped') return;
  const difference = firstDifference({ recorded: recorded.message, replayed: replayed.message, path: 'message' });
  if (difference) {
    session.diverge({
      kind: 'outcome',
      call: 'final message',
      field: difference.path,
      recorded: difference.recorded,
      replayed: difference.replayed,
      message: `${step.label} ended with another message than recorded (${difference.path}).`,
      ...spans,
    });
  }
}

/**
 * Ends one replayed step, for every runtime's replay: a strict stop taken in it says `stopped`
 * (not the runtime's wrapping of the stop); unless stopped, how it ended is compared with the
 * recording (`comparable` drops what differs by nature, e.g. ids the runtime made up); its
 * result with the calls the session counted.
 */
export function closeReplayedStep(options: {
  session: ReplaySession;
  step: SpanRef & { index: number; label: string; outcome: StepOutcome };
  base: Omit<ReplayStepResult, 'replayed' | 'matched' | 'history'>;
  replayed: StepOutcome;
  history?: ReplayStepResult['history'];
  /** Divergences before the step began. */
  before: number;
  comparable?: (outcome: StepOutcome) => StepOutcome;
}): ReplayStepResult {
  const { session, step, base, history, before } = options;
  const counts = session.counts;
  // The session was not stopped when the step began; the cast undoes TypeScript's narrowing.
  const stoppedAt = session.stopped as { step: number } | undefined;
  const replayed: StepOutcome = stoppedAt?.step === step.index ? { kind: 'stopped' } : options.replayed;
  if (!session.stopped) {
    const comparable = options.comparable ?? ((outcome: StepOutcome) => outcome);
    // How the step ended says more than which calls are missing: it goes first.
    compareOutcome({ session, step: { ...step, outcome: comparable(step.outcome) }, replayed: comparable(replayed) });
    session.finishStep();
  }
  return {
    ...base,
    replayed,
    ...(history ? { history } : {}),
    matched: session.divergences.length === before,
    modelCalls: { ...base.modelCalls, replayed: counts.models },
    toolCalls: { ...base.toolCalls, replayed: counts.tools },
  };
}

/** A recorded step's row of the report before it is replayed: what the recording did, nothing replayed yet. */
export function recordedStepBase(step: { index: number; label: string; kind?: 'generate' | 'tool'; outcome: StepOutcome; modelCalls?: readonly unknown[]; toolExecutions: readonly unknown[] }): Omit<ReplayStepResult, 'replayed' | 'matched' | 'history'> {
  const kind = step.kind ?? 'generate';
  return {
    index: step.index,
    label: step.label,
    kind,
    recorded: step.outcome,
    modelCalls: { recorded: kind === 'generate' ? (step.modelCalls?.length ?? 0) : 0, replayed: 0 },
    toolCalls: { recorded: step.toolExecutions.length, replayed: 0 },
  };
}
