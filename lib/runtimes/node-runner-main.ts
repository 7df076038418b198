/**
 * The node runner's process entry: the runner (lib/runner/node-runner.ts) with the engines of the
 * registered runtimes that run in Node, in the registry's order, and the registry's reader of
 * recordings. The server spawns this file (lib/server/runners/runner-process.ts).
 */
import { startNodeRunner } from '../runner/node-runner';
import { RUNTIME_DRIVERS } from './drivers';

startNodeRunner({
  engines: RUNTIME_DRIVERS.flatMap((driver) => (driver.nodeEngine ? [driver.nodeEngine] : [])),
  // Read only when a replay comes: the graph and every recording reader are not part of a runner's cold start.
  readRecording: async (spans) => (await import('./read-recording')).readReplayable(spans),
});
