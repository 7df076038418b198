import { context, createContextKey } from '@opentelemetry/api';

/**
 * A value that the code run inside `run` (and everything it starts, across awaits) can read,
 * like an AsyncLocalStorage — but carried in the active OpenTelemetry context, on the context
 * manager's own AsyncLocalStorage, instead of a storage of its own. Node 20 runs a hook per
 * storage in use for every promise the process creates: three more storages than bare genkit
 * made its loop ≈10% slower (0.3 ms of a warm 3.3 ms 20-round run, measured here), a cost of
 * the runner's capture that no model turn can avoid (bench/capture-overhead.bench.ts).
 *
 * Needs an AsyncLocalStorage context manager registered (the runner's NodeSDK, and
 * in-process-capture.ts, register one): without one, `getStore` sees nothing.
 */
export class ContextSlot<T> {
  private readonly key: symbol;

  constructor(description: string) {
    this.key = createContextKey(`loopscope.${description}`);
  }

  /** Runs `callback` with `value` in this slot, for it and everything it starts. */
  run<R>(value: T, callback: () => R): R {
    return context.with(context.active().setValue(this.key, value), callback);
  }

  /** The value of the innermost `run` the code executing now is inside, if any. */
  getStore(): T | undefined {
    return context.active().getValue(this.key) as T | undefined;
  }
}
