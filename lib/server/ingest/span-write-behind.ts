import type { Span } from '../../spans/span';

export interface SpanWriteBehindOptions {
  /**
   * Stores spans and tells live pages (the server's `ingestSpans`). Called synchronously by
   * `add`'s timer and by `flush`, possibly while an earlier call is still writing: it must
   * apply its calls in the order they were made (the store's append queue does, and takes the
   * spans into that queue before it returns).
   */
  write: (spans: Span[]) => Promise<void>;
  /** A burst of span batches is written this long after its last batch (default 10 ms)… */
  quietMs?: number;
  /** …and at most this long after its first (default 50 ms; twice the last write's time when that is longer). */
  maxDelayMs?: number;
  /** A write failed: these spans are not stored (logged by the caller); later writes go on. A burst of several traces is retried trace by trace first. */
  onError?: (error: unknown, spans: Span[]) => void;
}

const DEFAULT_QUIET_MS = 10;
const DEFAULT_MAX_DELAY_MS = 50;

/**
 * Stores the spans the runners report over IPC behind the run, not span by span: batches
 * that arrive close together (a model turn and its tool calls end within a millisecond with a
 * fast model) are written as one append once the burst is quiet, or after a bounded delay
 * while spans keep coming, so the page sees a slow model's turns as they end. The store
 * rewrites a trace's file on every append, so one append per burst — and, for a run that
 * ends within the quiet time, one per run — is what keeps capture cheap (bench/capture-overhead.bench.ts).
 * `flush` hands what is waiting to the store at once: the supervisor calls it when a request
 * ends, before the run is reported done. The store answers every read after the appends
 * queued before it (read-your-writes, lib/store/trace-store.ts), so a page that asks for the
 * run's trace once it is done sees all of it, and the run's end does not wait for the commit.
 */
export class SpanWriteBehind {
  private pending: Span[] = [];
  private firstPendingAt = 0;
  private timer?: NodeJS.Timeout;
  /** Settles when every write started so far has ended. */
  private written: Promise<void> = Promise.resolve();
  private lastWriteMs = 0;
  private readonly quietMs: number;
  private readonly maxDelayMs: number;

  constructor(private readonly options: SpanWriteBehindOptions) {
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  }

  /** Spans waiting to be written. */
  get waiting(): number {
    return this.pending.length;
  }

  add(spans: readonly Span[]): void {
    if (spans.length === 0) return;
    if (this.pending.length === 0) this.firstPendingAt = Date.now();
    for (const span of spans) this.pending.push(span);
    this.schedule();
  }

  /**
   * Hands everything added so far to `write` now, synchronously; resolves once that write, and
   * every write before it, has ended. Never rejects.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length > 0) {
      const spans = this.pending;
      this.pending = [];
      const write = this.write(spans);
      this.written = Promise.all([this.written, write]).then(() => undefined);
    }
    return this.written;
  }

  private async write(spans: Span[]): Promise<void> {
    const started = Date.now();
    try {
      await this.options.write(spans);
    } catch (error) {
      // One trace the store refuses (a corrupt stored copy) must not cost the others: each trace again on its own.
      const traces = [...new Set(spans.map((span) => span.traceId))];
      if (traces.length < 2) this.options.onError?.(error, spans);
      else {
        for (const traceId of traces) {
          const ofTrace = spans.filter((span) => span.traceId === traceId);
          await this.options.write(ofTrace).catch((traceError: unknown) => this.options.onError?.(traceError, ofTrace));
        }
      }
    } finally {
      this.lastWriteMs = Date.now() - started;
    }
  }

  private schedule(): void {
    // A store that takes long per append is not asked to rewrite a growing trace more often than it can.
    const maxDelay = Math.max(this.maxDelayMs, 2 * this.lastWriteMs);
    const delay = Math.max(0, Math.min(this.quietMs, this.firstPendingAt + maxDelay - Date.now()));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
    // Pending spans never hold the process open; shutdown flushes them (RunnerSupervisor.stop).
    this.timer.unref();
  }
}
