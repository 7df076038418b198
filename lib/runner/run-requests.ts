/**
 * What a run request gives back and the step commands a run takes, whichever process runs it
 * (a node runner of the pool, the genkit Go runner, an attached app): the server's services and
 * each runtime's host speak these.
 */
import type { ReplayReport } from '../replay/replay-report';
import type { GenerateFailure, GenerateOutcome } from './runner-protocol';
import type { PauseDecision, RunMode } from './step-protocol';

export interface GenerateResult {
  traceIds: string[];
  /** The generate call's root span (a resume of it links there). */
  rootSpan?: { traceId: string; spanId: string };
  outcome?: GenerateOutcome;
  failure?: GenerateFailure;
  /** A replay's report. */
  report?: ReplayReport;
}

export interface StepCommandResult {
  ok: boolean;
  /** Rules the decision breaks (refused unless forced; warnings when forced). */
  problems?: string[];
  message?: string;
  /** The runner gave no answer in time (its event loop is blocked: a tool busy-looping). */
  unanswered?: true;
}

export type StepCommand =
  | { type: 'pause-decision'; runId: string; pauseId: string; decision: PauseDecision }
  | { type: 'set-mode'; runId: string; mode: RunMode }
  | { type: 'stop'; runId: string };

