/**
 * The runtimes Loopscope reads and acts on, as one value: the dialects (lib/runtimes/index.ts,
 * browser-safe: pages read with them) and the drivers (lib/runtimes/drivers.ts, Node-only).
 * A real runtime is registered by one line in each of those two files, so that pages never
 * import a driver; a test registers a runtime for reading AND acting in one line —
 * `const runtimes = withRuntime(toyRuntime)` — and hands `runtimes` to the generic entry points,
 * which all take it as their options (`buildRunGraph(spans, runtimes)`,
 * `readReplayable(spans, runtimes)`, `resumeContextFrom(spans, runtimes)`,
 * `validateResume(check, runtimes)`, `resumeTargetOf({ …, ...runtimes })`,
 * `nodeRunnerOptions(runtimes)`). Node-only: it holds drivers.
 */
import { LoopscopeError } from '../errors';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import { RUNTIME_DRIVERS } from './drivers';
import { DIALECTS } from './index';
import type { RuntimeDriver } from './runtime-driver';

/** Dialects and drivers, each in the order they are asked. */
export interface Runtimes {
  readonly dialects: readonly RuntimeDialect[];
  readonly drivers: readonly RuntimeDriver[];
}

/** One runtime: how Loopscope reads it, and — when it acts on it — its driver (the same id). */
export interface RuntimeRegistration {
  readonly dialect: RuntimeDialect;
  readonly driver?: RuntimeDriver;
}

/** The runtimes of the registry: what every entry point uses when it is given none. */
export const REGISTERED_RUNTIMES: Runtimes = { dialects: DIALECTS, drivers: RUNTIME_DRIVERS };

/**
 * `base` (the registry's runtimes by default) and one more, asked after the others: its dialect
 * claims only spans no registered dialect claims, its driver acts on its own runtime only.
 * @throws LoopscopeError INVALID_ARGUMENT when the driver names another runtime than the dialect,
 *   ALREADY_EXISTS when `base` has a runtime of that id.
 */
export function withRuntime(registration: RuntimeRegistration, base: Runtimes = REGISTERED_RUNTIMES): Runtimes {
  const { dialect, driver } = registration;
  if (driver && driver.runtime !== dialect.id) {
    throw new LoopscopeError('INVALID_ARGUMENT', `The driver of runtime "${driver.runtime}" was registered with the dialect of "${dialect.id}": a driver acts on its dialect's runtime.`);
  }
  if (base.dialects.some((candidate) => candidate.id === dialect.id) || base.drivers.some((candidate) => candidate.runtime === dialect.id)) {
    throw new LoopscopeError('ALREADY_EXISTS', `A runtime "${dialect.id}" is registered already.`);
  }
  return { dialects: [...base.dialects, dialect], drivers: driver ? [...base.drivers, driver] : base.drivers };
}
