/**
 * Stop, for one request in the runner (a generate, a resume or a replay of a run), whatever
 * runtime runs it. Stop aborts the request (its runtime's abort signal, its stepper's pauses),
 * which ends a run between steps or at a pause the runtime's own way. A tool's code cannot be
 * aborted — a promise that looks at no signal never settles — so a request with a tool executing
 * is reported over at once, without it (`abandoned`), as is one that has not ended `graceMs`
 * after the stop (a model defined in tools/ that hangs). Its code may still run: the runner says
 * so with the result, and the server replaces the runner once nothing else runs in it.
 */
import type { RunningTool } from '../runtimes/open-spans';
import type { GenerateFailure } from './runner-protocol';
import { StepError, type RunStepper } from './run-stepper';

/** How long a stopped request with no tool executing gets to end by itself before it is reported over. */
export const STOP_GRACE_MS = 1_000;

export const STOPPED_MESSAGE = 'The run was stopped by the user.';

function toolWords(tool: RunningTool): string {
  return `tool '${tool.name}'${tool.ref ? ` (ref ${tool.ref})` : ''}`;
}

export class RequestStop {
  readonly abort = new AbortController();
  /** Resolves with the run's failure when the request is reported over without waiting for its code. */
  readonly abandoned: Promise<GenerateFailure>;
  private giveUp!: (failure: GenerateFailure) => void;
  private timer?: NodeJS.Timeout;
  private over = false;
  /** True once the request was reported over with code of it still running. */
  leftRunning = false;

  constructor(
    private readonly options: {
      /** A tool of the request executing now (the runner's open spans, read by their dialects). */
      runningTool: () => RunningTool | undefined;
      stepper?: RunStepper;
      graceMs?: number;
    },
  ) {
    this.abandoned = new Promise((resolve) => (this.giveUp = resolve));
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** The user's Stop: aborts; reports the request over at once if a tool of it is executing, else after the grace. */
  stop(): void {
    if (this.stopped || this.over) return;
    this.options.stepper?.stop();
    this.abort.abort(new StepError(STOPPED_MESSAGE, 'CANCELLED'));
    const tool = this.options.runningTool();
    if (tool) {
      this.abandon(`The run was stopped by the user while ${toolWords(tool)} was running; Loopscope did not wait for the tool (its code cannot be interrupted), and the runner that ran it is replaced.`);
      return;
    }
    this.timer = setTimeout(() => {
      const late = this.options.runningTool();
      this.abandon(
        late
          ? `The run was stopped by the user while ${toolWords(late)} was running; Loopscope did not wait for the tool (its code cannot be interrupted), and the runner that ran it is replaced.`
          : `The run was stopped by the user and did not end within ${(this.options.graceMs ?? STOP_GRACE_MS) / 1000} s, so Loopscope did not wait for it; the runner that ran it is replaced.`,
      );
    }, this.options.graceMs ?? STOP_GRACE_MS);
    this.timer.unref();
  }

  /** The request ended by itself: nothing left to abandon. */
  settled(): void {
    this.over = true;
    clearTimeout(this.timer);
  }

  private abandon(message: string): void {
    if (this.over) return;
    this.over = true;
    this.leftRunning = true;
    this.giveUp({ message, status: 'CANCELLED', name: 'StepError' });
  }
}
