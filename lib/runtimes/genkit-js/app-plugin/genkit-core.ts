import { createRequire } from 'node:module';
import type * as GenkitCore from '@genkit-ai/core';

let loaded: typeof GenkitCore | undefined;

/**
 * The app's `@genkit-ai/core`, found the way the app's genkit finds it (cached). It is a
 * dependency of genkit, not of the app, so npm need not hoist it to where this file could import
 * it by name: with genkit's own packages nested under genkit (npm does that when another version
 * sits at the top of the tree), `import … from '@genkit-ai/core'` failed in the installed package
 * (ERR_MODULE_NOT_FOUND). genkit keeps the action context in a process-wide store
 * (`global.__genkit_AsyncContext`), which every copy reads: the CommonJS copy this loads in an ESM
 * app (≈17 ms) sees the app's context.
 */
export function genkitCore(): typeof GenkitCore {
  loaded ??= loadGenkitCore(import.meta.url);
  return loaded;
}

/** `@genkit-ai/core` as resolved from the `genkit` that `from` (a module URL or path) resolves. */
export function loadGenkitCore(from: string): typeof GenkitCore {
  const genkitMain = createRequire(from).resolve('genkit');
  return createRequire(genkitMain)('@genkit-ai/core') as typeof GenkitCore;
}
