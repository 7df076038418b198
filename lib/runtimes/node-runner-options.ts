/**
 * What a node runner (lib/runner/node-runner.ts) runs with, from a set of runtimes: the engines of
 * those that run in Node, in their order, and the reader of recordings over the same runtimes.
 * The runner's entry gives it the registry's (node-runner-main.ts); a test gives it its own
 * (`withRuntime(…)`, lib/runtimes/with-runtime.ts) to run a runtime the registry does not list.
 */
import type { NodeRunnerOptions } from '../runner/node-runner';
import type { Runtimes } from './with-runtime';

export function nodeRunnerOptions(runtimes: Runtimes): NodeRunnerOptions {
  return {
    engines: runtimes.drivers.flatMap((driver) => (driver.nodeEngine ? [driver.nodeEngine] : [])),
    // Read only when a replay comes: the graph and every recording reader are not part of a runner's cold start.
    readRecording: async (spans) => (await import('./read-recording')).readReplayable(spans, runtimes),
  };
}
