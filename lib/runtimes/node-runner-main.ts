/**
 * The node runner's process entry: the runner (lib/runner/node-runner.ts) with the engines of the
 * registered runtimes that run in Node, in the registry's order, and the registry's reader of
 * recordings. The server spawns this file (lib/server/runners/runner-process.ts): through tsx in a
 * clone, its bundle `dist/bin/runner.js` in the installed package (lib/install/entry-points.json).
 */
import { startNodeRunner } from '../runner/node-runner';
import { nodeRunnerOptions } from './node-runner-options';
import { REGISTERED_RUNTIMES } from './with-runtime';

startNodeRunner(nodeRunnerOptions(REGISTERED_RUNTIMES));
