/**
 * The toy loop, reading and acting, as one registration: `withRuntime(toyRuntime)`
 * (lib/runtimes/with-runtime.ts) gives the registry's runtimes and this one, for every generic
 * entry point. It is never in the registry itself (lib/runtimes/index.ts, drivers.ts): the toy
 * exists to prove that a runtime needs nothing outside its folder.
 */
import type { RuntimeRegistration } from '../with-runtime';
import { toyDriver } from './driver';
import { toyLoop } from './read';

export const toyRuntime: RuntimeRegistration = { dialect: toyLoop, driver: toyDriver };
