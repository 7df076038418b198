/**
 * The pauses of stepped generates that run in attached apps (issue 16, item 4). The app's step
 * middleware (lib/runtimes/genkit-js/app-plugin) asks here at every model call and tool execution; this
 * holds each run's mode (the page may change it while the run goes on) and its open pauses,
 * as the runner's RunStepper does for built-in runs, and answers the run service's step
 * commands (decide, set mode, stop) like a runner does. The wire is lib/contract/attach-step.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { WAIT_HOLD_MS, type AttachAckRequest, type AttachHookRequest, type AttachHookResponse, type AttachWaitResponse } from '../../contract/attach-step';
import type { PauseDecision, PauseInfo } from '../../contract/pause';
import type { SpanStartEvent } from '../../contract/span-start';
import type { RunMode } from '../../contract/run-mode';
import { LoopscopeError } from '../../errors';
import { shouldPauseModel, shouldPauseTool } from '../../runner/step-protocol';
import { tokensMatch } from '../http/request-guard';
import type { StepCommand, StepCommandResult } from '../../runner/run-requests';

/** How long a decision waits for the app to say it checked and applied it. */
const ACK_TIMEOUT_MS = 15_000;

interface OpenPause {
  info: PauseInfo;
  /** A decision on its way to the app (delivered by the next `wait`), until the app acknowledges it. */
  decision?: PauseDecision;
  delivered?: boolean;
  /** The app's `wait` held open, if any. */
  waiter?: (answer: AttachWaitResponse) => void;
  /** The page's decision call, waiting for the app's check. */
  settle?: (result: StepCommandResult) => void;
}

interface SteppedRun {
  runId: string;
  token: string;
  mode: RunMode;
  pauses: Map<string, OpenPause>;
  /** The app's open spans already told (each once). */
  spansTold: Set<string>;
  /** Model calls so far, over every generate of the run (a flow may call generate more than once): what model-turn breakpoints count. */
  modelCalls: number;
  /** Set by Stop (or the run's end): every hook and wait answers it. */
  stopped?: string;
}

export interface AttachedStepsOptions {
  onPause: (runId: string, pause: PauseInfo) => void;
  onPauseEnded: (runId: string, pauseId: string) => void;
  /** A step named the trace it belongs to: the run's live graph follows it. */
  onTrace: (runId: string, traceId: string) => void;
  /** A step named the app's open span it runs in (told once per span): drawn running until it ends. */
  onSpanStart?: (span: SpanStartEvent) => void;
  /** How long a `wait` is held (default WAIT_HOLD_MS). */
  holdMs?: number;
}

export class AttachedSteps {
  private readonly runs = new Map<string, SteppedRun>();

  constructor(private readonly options: AttachedStepsOptions) {}

  /** Starts holding a run's steps; returns its step token (the middleware's credential, valid while the run runs). */
  open(runId: string, mode: RunMode): string {
    const token = randomBytes(24).toString('base64url');
    this.runs.set(runId, { runId, token, mode, pauses: new Map(), spansTold: new Set(), modelCalls: 0 });
    return token;
  }

  /** The run ended: its pauses close, anything still waiting is told, its token stops working. */
  close(runId: string): void {
    const run = this.runs.get(runId);
    if (!run) return;
    this.stopAll(run, 'The run ended.');
    this.runs.delete(runId);
  }

  holdsRun(runId: string): boolean {
    return this.runs.has(runId);
  }

  /**
   * The run a middleware request is for, its token checked.
   * @throws LoopscopeError UNAUTHENTICATED (no or wrong token), NOT_FOUND (no such stepped run: it ended).
   */
  authorize(runId: string, token: string | null): SteppedRun {
    const run = this.runs.get(runId);
    if (!run) throw new LoopscopeError('NOT_FOUND', `No stepped run ${runId} is running here: it ended, or Loopscope restarted.`);
    if (!token || !tokensMatch(token, run.token)) throw new LoopscopeError('UNAUTHENTICATED', `The step token of run ${runId} is wrong.`);
    return run;
  }

  /** A model call or tool execution was reached: go on at once when the run's mode wants no pause there, else open one. */
  hook(run: SteppedRun, request: AttachHookRequest): AttachHookResponse {
    if (request.traceId) this.options.onTrace(run.runId, request.traceId);
    const traceId = request.traceId;
    for (const open of traceId ? [...(request.openSpan ? [request.openSpan] : []), ...(request.openSpans ?? [])] : []) {
      if (run.spansTold.has(open.spanId)) continue;
      run.spansTold.add(open.spanId);
      this.options.onSpanStart?.({ runId: run.runId, traceId: traceId as string, ...open });
    }
    if (run.stopped) return { stopped: run.stopped };
    const { pause } = request;
    if (pause.kind === 'model') run.modelCalls += 1;
    const wanted = pause.kind === 'model' ? shouldPauseModel(run.mode, run.modelCalls) : shouldPauseTool(run.mode, pause.tool.name);
    if (!wanted) return { decision: { action: 'continue' } };
    const info: PauseInfo = {
      pauseId: randomUUID(),
      kind: pause.kind,
      ...(pause.kind === 'model' ? { modelTurn: run.modelCalls } : { tool: pause.tool }),
      actions: pause.actions,
      pausedAt: Date.now(),
      ...(request.traceId ? { traceId: request.traceId } : {}),
    };
    run.pauses.set(info.pauseId, { info });
    this.options.onPause(run.runId, info);
    return { pauseId: info.pauseId };
  }

  /** The middleware waits for the decision: answered when there is one, else `{waiting}` after the hold. */
  wait(run: SteppedRun, pauseId: string): Promise<AttachWaitResponse> {
    if (run.stopped) return Promise.resolve({ stopped: run.stopped });
    const pause = this.openPause(run, pauseId);
    if (pause.decision && !pause.delivered) {
      pause.delivered = true;
      return Promise.resolve({ decision: pause.decision });
    }
    // One waiter per pause: a newer wait replaces an older one (the older is told to ask again).
    pause.waiter?.({ waiting: true });
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ waiting: true }), this.options.holdMs ?? WAIT_HOLD_MS);
      const finish = (answer: AttachWaitResponse) => {
        clearTimeout(timer);
        if (pause.waiter === finish) pause.waiter = undefined;
        resolve(answer);
      };
      pause.waiter = finish;
    });
  }

  /** The app checked a decision: applied (the pause ends), or refused with the rules it breaks (the pause stays open). */
  ack(run: SteppedRun, ack: AttachAckRequest): void {
    const pause = this.openPause(run, ack.pauseId);
    pause.settle?.(
      ack.applied
        ? { ok: true, ...(ack.problems.length > 0 ? { problems: ack.problems } : {}) }
        : { ok: false, problems: ack.problems, message: 'The app refused the decision' },
    );
    pause.settle = undefined;
    pause.decision = undefined;
    pause.delivered = false;
    if (!ack.applied) return;
    run.pauses.delete(ack.pauseId);
    this.options.onPauseEnded(run.runId, ack.pauseId);
  }

  /** A step command of the run service, for a run held here (as a runner answers it for its own runs). */
  command(command: StepCommand): Promise<StepCommandResult> {
    const run = this.runs.get(command.runId);
    if (!run) return Promise.resolve({ ok: false, message: `Run ${command.runId} is not a stepped run of an attached app.` });
    if (command.type === 'set-mode') {
      run.mode = command.mode;
      return Promise.resolve({ ok: true });
    }
    if (command.type === 'stop') {
      this.stopAll(run, 'The run was stopped by the user.');
      return Promise.resolve({ ok: true });
    }
    const pause = run.pauses.get(command.pauseId);
    if (!pause) return Promise.resolve({ ok: false, message: `Run ${command.runId} has no open pause ${command.pauseId}.` });
    if (pause.decision) return Promise.resolve({ ok: false, message: 'A decision for this pause is already on its way to the app.' });
    pause.decision = command.decision;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (pause.settle !== settle) return;
        pause.settle = undefined;
        pause.decision = undefined;
        pause.delivered = false;
        resolve({ ok: false, message: `The app did not confirm the decision within ${ACK_TIMEOUT_MS / 1000} s: is it still running?` });
      }, ACK_TIMEOUT_MS);
      const settle = (result: StepCommandResult) => {
        clearTimeout(timer);
        resolve(result);
      };
      pause.settle = settle;
      if (pause.waiter) {
        pause.delivered = true;
        pause.waiter({ decision: command.decision });
      }
    });
  }

  private openPause(run: SteppedRun, pauseId: string): OpenPause {
    const pause = run.pauses.get(pauseId);
    if (!pause) throw new LoopscopeError('NOT_FOUND', `Run ${run.runId} has no open pause ${pauseId}.`);
    return pause;
  }

  private stopAll(run: SteppedRun, message: string): void {
    run.stopped = message;
    for (const [pauseId, pause] of run.pauses) {
      pause.waiter?.({ stopped: message });
      pause.settle?.({ ok: false, message });
      this.options.onPauseEnded(run.runId, pauseId);
    }
    run.pauses.clear();
  }
}
