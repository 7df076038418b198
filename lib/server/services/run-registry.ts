import { randomUUID } from 'node:crypto';
import type { PauseInfo } from '../../contract/pause';
import type { ReplayInfo } from '../../contract/replay';
import type { RealModelChoice } from '../../contract/provider';
import type { RunMode } from '../../contract/run-mode';
import type { RunRunnerInfo } from '../../contract/runner-status';
import type { RunSession } from '../../contract/run-session';
import type { SpanStartEvent } from '../../contract/span-start';
import type { TraceSource } from '../../contract/trace-source';
import { LoopscopeError } from '../../errors';
import { describeOutcome } from '../../replay/replay-report';
import { boundText, MESSAGE_MAX_CHARACTERS } from '../../spans/bounded-text';
import type { ResumeRequest } from '../../runner/runner-protocol';
import type { GenerateResult } from '../../runner/run-requests';

// The run session is a wire type (lib/contract); server code keeps importing it from here.
export type { ReplayInfo, RunSession };

/**
 * A new run: a scenario's (its name is the label), or a resume of a recording or a replay,
 * which carry a label of their own and no scenario.
 */
export type NewRun =
  | { scenario: string; mode?: RunMode; provider?: RealModelChoice }
  | { label: string; mode?: RunMode; replay?: ReplayInfo; resumeOf?: TraceSource; app?: RunSession['app'] };

interface RunState {
  session: RunSession;
  /** The history to resume from; kept server-side, never sent to the page unasked. */
  messages?: unknown[];
  /** The root span of the run's last generate call: a resume links to it. */
  lastGenerate?: { traceId: string; spanId: string };
  /** Span starts seen so far, replayed to a page that connects late (its spans may still be open). */
  spanStarts: SpanStartEvent[];
  /** The user asked to stop it: the end of its call reads as `stopped`. */
  stopping?: boolean;
  /** Callers waiting for it to stop running. */
  endWaiters?: (() => void)[];
}

const MAX_RUNS = 200;
const MAX_SPAN_STARTS_PER_RUN = 10_000;

/** Keeps recent runs in memory; their traces live in the store. */
export class RunRegistry {
  private readonly runs = new Map<string, RunState>();

  constructor(private readonly onChange: (session: RunSession) => void) {}

  create(run: NewRun): RunSession {
    const session: RunSession = {
      runId: randomUUID(),
      // A label may name a recorded model or tool (`resume of <model>`): bounded as lists bound names.
      ...('scenario' in run ? { label: boundText(run.scenario), scenario: run.scenario } : { label: boundText(run.label) }),
      status: 'running',
      traceIds: [],
      startedAt: Date.now(),
      interrupts: [],
      resumes: 0,
      mode: run.mode ?? { kind: 'run' },
      pauses: [],
      version: 0,
      ...('replay' in run && run.replay ? { replay: run.replay.fork === undefined ? run.replay : { ...run.replay, fork: boundText(run.replay.fork, MESSAGE_MAX_CHARACTERS) } } : {}),
      ...('resumeOf' in run && run.resumeOf ? { resumeOf: run.resumeOf } : {}),
      ...('provider' in run && run.provider ? { provider: run.provider } : {}),
      ...('app' in run && run.app ? { app: run.app } : {}),
    };
    this.runs.set(session.runId, { session, spanStarts: [] });
    // Forget the oldest runs; their traces stay in the store.
    while (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value as string);
    this.onChange(session);
    return session;
  }

  get(runId: string): RunSession | undefined {
    return this.runs.get(runId)?.session;
  }

  list(): RunSession[] {
    return [...this.runs.values()].map((state) => state.session).reverse();
  }

  /** Remembers a span start of a run so a page that connects later still sees running spans. */
  recordSpanStart(event: SpanStartEvent): void {
    const state = this.runs.get(event.runId);
    if (state && state.spanStarts.length < MAX_SPAN_STARTS_PER_RUN) state.spanStarts.push(event);
  }

  /** A span that started in a run and may not have ended: the newest run that saw it start. */
  spanStart(traceId: string, spanId: string): SpanStartEvent | undefined {
    for (const state of [...this.runs.values()].reverse()) {
      const found = state.spanStarts.find((start) => start.traceId === traceId && start.spanId === spanId);
      if (found) return found;
    }
    return undefined;
  }

  /** What a page needs when it connects: the run and the span starts it may have missed. */
  snapshot(runId: string): { run: RunSession; spanStarts: SpanStartEvent[] } | undefined {
    const state = this.runs.get(runId);
    return state ? { run: state.session, spanStarts: [...state.spanStarts] } : undefined;
  }

  addPause(runId: string, pause: PauseInfo): void {
    const state = this.runs.get(runId);
    if (state) this.update(state, { pauses: [...state.session.pauses, pause] });
  }

  removePause(runId: string, pauseId: string): void {
    const state = this.runs.get(runId);
    if (state) this.update(state, { pauses: state.session.pauses.filter((pause) => pause.pauseId !== pauseId) });
  }

  setMode(runId: string, mode: RunMode): void {
    const state = this.runs.get(runId);
    if (state) this.update(state, { mode });
  }

  /** Which runner runs the run now, or why it is waiting for one. */
  setRunner(runId: string, runner: RunRunnerInfo): void {
    const state = this.runs.get(runId);
    if (state) this.update(state, { runner });
  }

  addTrace(runId: string, traceId: string): void {
    const state = this.runs.get(runId);
    if (!state || state.session.traceIds.includes(traceId)) return;
    this.update(state, { traceIds: [...state.session.traceIds, traceId] });
  }

  /**
   * The user asked to stop the run (`false`: the stop did not reach it): when its call ends
   * with a failure, the run is `stopped`, not `failed`. A call that finished meanwhile stays finished.
   */
  markStopping(runId: string, stopping = true): void {
    const state = this.runs.get(runId);
    if (state) state.stopping = stopping;
  }

  /** The run once it is no longer running, or as it is after `timeoutMs` (undefined: no such run). */
  whenEnded(runId: string, timeoutMs: number): Promise<RunSession | undefined> {
    const state = this.runs.get(runId);
    if (!state || state.session.status !== 'running') return Promise.resolve(state?.session);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.runs.get(runId)?.session ?? state.session);
      };
      const timer = setTimeout(() => {
        state.endWaiters = state.endWaiters?.filter((waiter) => waiter !== done);
        resolve(state.session);
      }, timeoutMs);
      (state.endWaiters ??= []).push(done);
    });
  }

  /** The history and scenario to resume a paused run with. */
  resumeInput<Answer = ResumeRequest>(runId: string, resume: Answer): { scenario?: string; messages: unknown[]; resume: Answer; answers?: { traceId: string; spanId: string } } {
    const state = this.runs.get(runId);
    if (!state) throw new LoopscopeError('NOT_FOUND', `No run ${runId} (runs are kept in memory until the server restarts).`);
    if (state.session.status !== 'interrupted' || !state.messages) {
      throw new LoopscopeError('FAILED_PRECONDITION', `Run ${runId} is ${state.session.status}, not interrupted: there is nothing to resume.`);
    }
    this.update(state, { status: 'running', resumes: state.session.resumes + 1, endedAt: undefined, interrupts: [] });
    return { scenario: state.session.scenario, messages: state.messages, resume, ...(state.lastGenerate ? { answers: state.lastGenerate } : {}) };
  }

  /** Records the outcome of one generate call of the run. */
  complete(runId: string, result: GenerateResult): RunSession | undefined {
    const state = this.runs.get(runId);
    if (!state) return undefined;
    const traceIds = [...state.session.traceIds];
    for (const traceId of result.traceIds) if (!traceIds.includes(traceId)) traceIds.push(traceId);
    if (result.failure) {
      this.update(state, { status: state.stopping ? 'stopped' : 'failed', failure: result.failure, traceIds, endedAt: Date.now(), finishReason: 'error', pauses: [] });
    } else {
      const outcome = result.outcome;
      state.messages = outcome?.messages;
      state.lastGenerate = result.rootSpan;
      this.update(state, {
        // genkit says `interrupted`; the AI SDK ends `tool-calls` with calls waiting for an answer (approvals, handed-back tools).
        status: outcome?.finishReason === 'interrupted' || (outcome?.interrupts.length ?? 0) > 0 ? 'interrupted' : 'finished',
        finishReason: outcome?.finishReason,
        text: outcome?.text,
        interrupts: outcome?.interrupts ?? [],
        traceIds,
        endedAt: Date.now(),
        failure: undefined,
        pauses: [],
      });
    }
    return state.session;
  }

  /** Tells the interrupted runs that recorded these traces that `runId` answered them (from the workbench). */
  noteAnsweredBy(traceIds: readonly string[], runId: string): void {
    for (const state of this.runs.values()) {
      if (state.session.runId === runId || !state.session.traceIds.some((traceId) => traceIds.includes(traceId))) continue;
      this.update(state, { answeredBy: [...(state.session.answeredBy ?? []), runId] });
    }
  }

  /** The runs `runId` answered from the workbench (the interrupted runs whose `answeredBy` names it). */
  answeredBy(runId: string): string[] {
    return [...this.runs.values()].filter((state) => state.session.answeredBy?.includes(runId)).map((state) => state.session.runId);
  }

  /** Records the outcome of a replay: finished when the replay ran (matched or not), failed when it could not run. */
  completeReplay(runId: string, result: GenerateResult): RunSession | undefined {
    const state = this.runs.get(runId);
    if (!state?.session.replay) return undefined;
    const traceIds = [...state.session.traceIds];
    for (const traceId of result.traceIds) if (!traceIds.includes(traceId)) traceIds.push(traceId);
    // The outcome words are the CLI's (lib/replay): the page shows them as they are.
    const stepOutcomes = result.report?.steps.map((step) => ({ recorded: describeOutcome(step.recorded), replayed: describeOutcome(step.replayed) }));
    const replay = { ...state.session.replay, report: result.report, ...(stepOutcomes ? { stepOutcomes } : {}) };
    if (result.failure || !result.report) {
      this.update(state, { status: state.stopping ? 'stopped' : 'failed', failure: result.failure ?? { message: 'The replay ended without a report.' }, traceIds, endedAt: Date.now(), replay });
    } else {
      this.update(state, { status: 'finished', finishReason: result.report.matched ? 'match' : 'diverged', traceIds, endedAt: Date.now(), replay });
    }
    return state.session;
  }

  private update(state: RunState, patch: Partial<RunSession>): void {
    // Every page gets every run's changes (the home page too): a failure's message is bounded like a summary's.
    const failure = patch.failure ? { failure: { ...patch.failure, message: boundText(patch.failure.message, MESSAGE_MAX_CHARACTERS) } } : {};
    state.session = { ...state.session, ...patch, ...failure, version: state.session.version + 1 };
    if (state.session.status !== 'running') {
      state.stopping = false;
      for (const waiter of state.endWaiters?.splice(0) ?? []) waiter();
    }
    this.onChange(state.session);
  }
}
