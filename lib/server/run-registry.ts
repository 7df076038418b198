import { randomUUID } from 'node:crypto';
import { LoopscopeError } from '../errors';
import type { GenerateFailure, ResumeRequest, SpanStartEvent } from '../runtime/runner-protocol';
import type { PauseInfo, RunMode } from '../runtime/step-protocol';
import type { ReplayMode, ReplayReport } from '../replay/replay-report';
import type { GenerateResult, RunRunnerInfo } from './runner-supervisor';

/** A replay run: what it replays, how, and (when done) how it compared with the recording. */
export interface ReplayInfo {
  source: { file: string } | { traceIds: string[] };
  liveTools: boolean;
  mode: ReplayMode;
  /** A fork: which recorded answer was replaced (in words). */
  fork?: string;
  report?: ReplayReport;
}

/**
 * A run: one scenario's first generate and the resumes that followed it. `interrupted` is
 * a pause, waiting for an answer — never a failure.
 */
export interface RunSession {
  runId: string;
  scenario: string;
  status: 'running' | 'interrupted' | 'finished' | 'failed';
  /** Trace ids in causal order (each generate call is its own trace). */
  traceIds: string[];
  startedAt: number;
  endedAt?: number;
  finishReason?: string;
  text?: string;
  failure?: GenerateFailure;
  /** The interrupted tool requests awaiting an answer. */
  interrupts: unknown[];
  /** How many resumes ran. */
  resumes: number;
  /** Run, step or breakpoints (changeable while the run goes on). */
  mode: RunMode;
  /** Where the run is paused now (parallel tool calls pause together). */
  pauses: PauseInfo[];
  /** Grows with every change: a page keeps the newest state whichever way it arrived. */
  version: number;
  /** Present on a replay (or fork) of a recording. */
  replay?: ReplayInfo;
  /** Present on a resume of a recorded interrupt: where the interrupted generate was recorded. */
  resumeOf?: { file: string } | { traceIds: string[] };
  /** Runs (resumes started from the workbench) that answered this run's interrupt. */
  answeredBy?: string[];
  /** The runner process of its latest generate (or why it waits for one; whether it had to share). */
  runner?: RunRunnerInfo;
}

interface RunState {
  session: RunSession;
  /** The history to resume from; kept server-side, never sent to the page unasked. */
  messages?: unknown[];
  /** The root span of the run's last generate call: a resume links to it. */
  lastGenerate?: { traceId: string; spanId: string };
  /** Span starts seen so far, replayed to a page that connects late (its spans may still be open). */
  spanStarts: SpanStartEvent[];
}

const MAX_RUNS = 200;
const MAX_SPAN_STARTS_PER_RUN = 10_000;

/** Keeps recent runs in memory; their traces live in the store. */
export class RunRegistry {
  private readonly runs = new Map<string, RunState>();

  constructor(private readonly onChange: (session: RunSession) => void) {}

  create(scenario: string, mode: RunMode = { kind: 'run' }, replay?: ReplayInfo, resumeOf?: RunSession['resumeOf']): RunSession {
    const session: RunSession = {
      runId: randomUUID(),
      scenario,
      status: 'running',
      traceIds: [],
      startedAt: Date.now(),
      interrupts: [],
      resumes: 0,
      mode,
      pauses: [],
      version: 0,
      ...(replay ? { replay } : {}),
      ...(resumeOf ? { resumeOf } : {}),
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

  /** The history and scenario to resume a paused run with. */
  resumeInput(runId: string, resume: ResumeRequest): { scenario: string; messages: unknown[]; resume: ResumeRequest; answers?: { traceId: string; spanId: string } } {
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
      this.update(state, { status: 'failed', failure: result.failure, traceIds, endedAt: Date.now(), finishReason: 'error', pauses: [] });
    } else {
      const outcome = result.outcome;
      state.messages = outcome?.messages;
      state.lastGenerate = result.rootSpan;
      this.update(state, {
        status: outcome?.finishReason === 'interrupted' ? 'interrupted' : 'finished',
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

  /** Records the outcome of a replay: finished when the replay ran (matched or not), failed when it could not run. */
  completeReplay(runId: string, result: GenerateResult): RunSession | undefined {
    const state = this.runs.get(runId);
    if (!state?.session.replay) return undefined;
    const traceIds = [...state.session.traceIds];
    for (const traceId of result.traceIds) if (!traceIds.includes(traceId)) traceIds.push(traceId);
    const replay = { ...state.session.replay, report: result.report };
    if (result.failure || !result.report) {
      this.update(state, { status: 'failed', failure: result.failure ?? { message: 'The replay ended without a report.' }, traceIds, endedAt: Date.now(), replay });
    } else {
      this.update(state, { status: 'finished', finishReason: result.report.matched ? 'match' : 'diverged', traceIds, endedAt: Date.now(), replay });
    }
    return state.session;
  }

  private update(state: RunState, patch: Partial<RunSession>): void {
    state.session = { ...state.session, ...patch, version: state.session.version + 1 };
    this.onChange(state.session);
  }
}
