/**
 * Counts the pages watching each run. A paused run that nobody watches any more (the tab
 * was closed) is stopped after a grace period, so it does not hold the runner until the
 * pause limit.
 */
export class RunWatchers {
  private readonly counts = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly options: {
      graceMs: number;
      /** Called when a run has had no watcher for the grace period. */
      onAbandoned: (runId: string) => void;
    },
  ) {}

  /** Registers a watcher; returns the function that unregisters it. */
  watch(runId: string): () => void {
    this.counts.set(runId, (this.counts.get(runId) ?? 0) + 1);
    clearTimeout(this.timers.get(runId));
    this.timers.delete(runId);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.counts.get(runId) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(runId, left);
        return;
      }
      this.counts.delete(runId);
      const timer = setTimeout(() => {
        this.timers.delete(runId);
        if (!this.counts.has(runId)) this.options.onAbandoned(runId);
      }, this.options.graceMs);
      timer.unref();
      this.timers.set(runId, timer);
    };
  }

  watching(runId: string): number {
    return this.counts.get(runId) ?? 0;
  }
}
