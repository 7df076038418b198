/**
 * Tool calls' time limit on one timer. The runner's tool calls all have the same limit, so
 * their deadlines come in the order the calls start: one timer, armed for the oldest call
 * still running, stands for all of them. A timer set and cleared for every call, with a promise
 * raced against it, cost a fast 20-round loop ≈0.3 ms of the runner's 8 a run
 * (bench/runner-process-overhead.bench.ts).
 */
interface RunningCall {
  deadline: number;
  fail: () => void;
}

export class ToolDeadlines {
  private static readonly byLimit = new Map<number, ToolDeadlines>();

  /** The one instance for a limit: every run of a runner shares its timer. */
  static forLimit(limitMs: number): ToolDeadlines {
    let deadlines = ToolDeadlines.byLimit.get(limitMs);
    if (!deadlines) ToolDeadlines.byLimit.set(limitMs, (deadlines = new ToolDeadlines(limitMs)));
    return deadlines;
  }

  /** Calls still running, oldest (earliest deadline) first: a Set keeps insertion order. */
  private readonly running = new Set<RunningCall>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly limitMs: number) {}

  /** Calls still running (for tests). */
  get size(): number {
    return this.running.size;
  }

  /**
   * Settles as `execute()` does, or rejects with `timeoutError()` once the call has run for
   * the limit (the call itself goes on: a promise cannot be stopped, and genkit never hears of it).
   */
  run<T>(execute: () => Promise<T>, timeoutError: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: RunningCall = { deadline: Date.now() + this.limitMs, fail: () => reject(timeoutError()) };
      this.running.add(call);
      // Held while a call runs (a tool that waits on nothing still fails at its limit), not after:
      // a process that ran its last tool call exits without waiting for the limit (the CLI's resume).
      if (this.timer) this.timer.ref();
      else this.timer = setTimeout(() => this.expire(), this.limitMs);
      execute().then(
        (value) => {
          this.settled(call);
          resolve(value);
        },
        (error: unknown) => {
          this.settled(call);
          reject(error);
        },
      );
    });
  }

  private settled(call: RunningCall): void {
    this.running.delete(call);
    if (this.running.size === 0) this.timer?.unref();
  }

  /** Fails the calls whose deadline passed, and arms the timer for the oldest one left. */
  private expire(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const call of this.running) {
      if (call.deadline > now) {
        this.timer = setTimeout(() => this.expire(), call.deadline - now);
        return;
      }
      this.running.delete(call);
      call.fail();
    }
  }
}
