import type { AppContext } from './app-context-ports';

/**
 * Where the process-wide context lives: on globalThis, because Next loads route handlers, the
 * proxy and instrumentation as separate bundles that share only the global object — and the
 * HTTP server of scripts/start.js, which loads lib/ through tsx, is one more such copy.
 */
const KEY = Symbol.for('loopscope.app-context');

const holder = () => globalThis as unknown as Record<symbol, AppContext | undefined>;

/** The context if one was made already (by any copy of this module), without making one. */
export function existingAppContext(): AppContext | undefined {
  return holder()[KEY];
}

/** The context, made by `create` on first use. */
export function heldAppContext(create: () => AppContext): AppContext {
  const held = holder();
  held[KEY] ??= create();
  return held[KEY];
}
