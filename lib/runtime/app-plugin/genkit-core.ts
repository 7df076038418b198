import { createRequire } from 'node:module';
import type * as GenkitCore from '@genkit-ai/core';

let loaded: typeof GenkitCore | undefined;

/**
 * The app's `@genkit-ai/core`, found the way the app's genkit finds it. It is a dependency of
 * genkit, not of the app, so npm need not hoist it to where this file could import it by name: an
 * app on genkit 1.33 beside a newer genkit elsewhere in its tree gets it nested under genkit, and
 * `import … from '@genkit-ai/core'` failed there (ERR_MODULE_NOT_FOUND, measured from the package).
 * genkit keeps the action context in a process-wide store (`global.__genkit_AsyncContext`), which
 * every copy reads: the CommonJS copy this loads in an ESM app (≈17 ms) sees the app's context.
 */
export function genkitCore(): typeof GenkitCore {
  if (!loaded) {
    const genkitMain = createRequire(import.meta.url).resolve('genkit');
    loaded = createRequire(genkitMain)('@genkit-ai/core') as typeof GenkitCore;
  }
  return loaded;
}
