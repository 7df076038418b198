/**
 * Each registered runtime's driver (lib/runtimes/runtime-driver.ts), in the registry's order
 * (lib/runtimes/index.ts lists the runtimes and their dialects; this file adds what Loopscope
 * does with them). Node-only: pages never import it. A runtime Loopscope only reads has no entry;
 * `with-runtime.test.ts` checks that every driver names a registered runtime. A test adds a runtime
 * of its own to both lists in one line: `withRuntime(…)` (with-runtime.ts).
 */
import { aiSdkDriver } from './ai-sdk/driver';
import { genkitGoDriver } from './genkit-go/driver';
import { genkitJsDriver } from './genkit-js/driver';
import type { RuntimeDriver } from './runtime-driver';

export const RUNTIME_DRIVERS: readonly RuntimeDriver[] = [genkitGoDriver, genkitJsDriver, aiSdkDriver];

/** The driver of a runtime, by its id (undefined for a runtime Loopscope only reads). */
export function driverOf(runtime: string, drivers: readonly RuntimeDriver[] = RUNTIME_DRIVERS): RuntimeDriver | undefined {
  return drivers.find((driver) => driver.runtime === runtime);
}
