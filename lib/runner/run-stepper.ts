/**
 * One run's pauses in the runner, whichever runtime pauses it: genkit's middleware
 * (genkit-step-middleware.ts) and the AI SDK's wrapped model and tools (ai-sdk/step-hooks.ts)
 * both ask it whether to pause and wait here for the developer's decision.
 */
import { randomUUID } from 'node:crypto';
import { shouldPauseModel, shouldPauseTool, type PauseAction, type PauseDecision, type PauseInfo, type RunMode } from './step-protocol';

export class StepError extends Error {
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

interface PendingPause {
  info: PauseInfo;
  resolve: (decision: PauseDecision) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Holds one run's mode and pauses in the runner. A paused hook awaits the developer's
 * decision; parallel tool calls pause together and are released one by one, in any order.
 */
export class RunStepper {
  readonly abort = new AbortController();
  private readonly pending = new Map<string, PendingPause>();
  private modelCalls = 0;

  constructor(
    private mode: RunMode,
    private readonly options: {
      pauseTimeoutMs: number;
      onPause: (pause: PauseInfo) => void;
      onPauseEnded: (pauseId: string) => void;
    },
  ) {}

  setMode(mode: RunMode): void {
    this.mode = mode;
  }

  nextModelTurn(): number {
    this.modelCalls += 1;
    return this.modelCalls;
  }

  wantsModelPause(turn: number): boolean {
    return shouldPauseModel(this.mode, turn);
  }

  wantsToolPause(name: string): boolean {
    return shouldPauseTool(this.mode, name);
  }

  /** Waits for the developer's decision (or the pause limit, or Stop). */
  pause(info: Omit<PauseInfo, 'pauseId' | 'pausedAt'>): Promise<PauseDecision> {
    if (this.abort.signal.aborted) return Promise.reject(new StepError('The run was stopped by the user.', 'CANCELLED'));
    const pause: PauseInfo = { ...info, pauseId: randomUUID(), pausedAt: Date.now() };
    return new Promise<PauseDecision>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.finish(pause.pauseId);
        reject(
          new StepError(
            `The run stayed paused for longer than ${Math.round(this.options.pauseTimeoutMs / 1000)} s (LOOPSCOPE_PAUSE_TIMEOUT_MS), so it was ended.`,
            'DEADLINE_EXCEEDED',
          ),
        );
      }, this.options.pauseTimeoutMs);
      this.pending.set(pause.pauseId, { info: pause, resolve, reject, timer });
      this.options.onPause(pause);
    });
  }

  private finish(pauseId: string): PendingPause | undefined {
    const pending = this.pending.get(pauseId);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(pauseId);
    this.options.onPauseEnded(pauseId);
    return pending;
  }

  /** Applies a decision; false when no such pause is waiting. */
  decide(pauseId: string, decision: PauseDecision): boolean {
    const pending = this.finish(pauseId);
    pending?.resolve(decision);
    return pending !== undefined;
  }

  /** The tools paused now, before they run (a runtime may already have opened their span: the AI SDK's execute_tool). */
  pausedTools(): { name: string; ref?: string }[] {
    return [...this.pending.values()].flatMap((pending) => (pending.info.tool ? [pending.info.tool] : []));
  }

  pauseInfo(pauseId: string): PauseInfo | undefined {
    return this.pending.get(pauseId)?.info;
  }

  /** Why a decision cannot be taken at this pause (its runtime cannot carry it out), if so: never forceable. */
  refusal(pause: PauseInfo, action: PauseAction): string | undefined {
    if (!pause.actions || pause.actions.includes(action)) return undefined;
    return `This pause does not take "${action}": it takes ${pause.actions.map((offered) => `"${offered}"`).join(', ')}.`;
  }

  /** Stop: every waiting pause fails, and the generate's abort signal fires. */
  stop(): void {
    this.abort.abort(new StepError('The run was stopped by the user.', 'CANCELLED'));
    for (const pauseId of [...this.pending.keys()]) this.finish(pauseId)?.reject(new StepError('The run was stopped by the user while paused.', 'CANCELLED'));
  }
}
