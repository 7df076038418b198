/**
 * Which traces' root spans have arrived through the genkit telemetry door. genkit JS 1.42
 * answers `runAction` before its TraceServerExporter's POSTs are done (its `flushTracing` does
 * not wait for them; measured: the root span lands a few ms to tens of ms after the answer), so
 * a run waits here for its root span before it reports its trace — otherwise the trace would be
 * missing or partial when the page opens it.
 */
const REMEMBERED = 2_000;

export class TraceArrivals {
  private readonly roots = new Set<string>();
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Called for every stored batch of an app's spans. */
  note(spans: readonly { traceId: string; parentSpanId?: string }[]): void {
    for (const span of spans) {
      if (span.parentSpanId) continue;
      this.roots.add(span.traceId);
      if (this.roots.size > REMEMBERED) this.roots.delete(this.roots.values().next().value as string);
      for (const resolve of this.waiting.get(span.traceId) ?? []) resolve();
      this.waiting.delete(span.traceId);
    }
  }

  /** Resolves true once the trace's root span is stored, false after `timeoutMs`. */
  rootArrived(options: { traceId: string; timeoutMs: number }): Promise<boolean> {
    const { traceId, timeoutMs } = options;
    if (this.roots.has(traceId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.get(traceId)?.delete(done);
        resolve(false);
      }, timeoutMs);
      const set = this.waiting.get(traceId) ?? new Set();
      set.add(done);
      this.waiting.set(traceId, set);
    });
  }
}
