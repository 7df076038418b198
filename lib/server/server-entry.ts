/**
 * What scripts/start.js needs of lib/server, in one module: loaded through tsx from source in a
 * clone, and bundled as dist/bin/server.js in the package (lib/install/entry-points.json), so
 * the installed server starts without a TypeScript loader.
 */
export { planListen } from './http/listen-plan';
export { startHttpServers } from './http/start-http-servers';
export { readHttpTimeouts, readForwarding } from './http/server-config';
export { createOtlpFastPath } from './http/otlp-fast-path';
export { createRunsFastPath } from './http/runs-fast-path';
export { createRuntimesFastPath } from './http/runtimes-fast-path';
export { createEventsFastPath } from './http/events-fast-path';
export { existingAppContext } from './app-context-holder';
export { getAppContext } from './app-context';
export { startRunners } from './runners/start-runners';
export { createReflectionDoor } from './attach/reflection-door';
export { loopscopeInstall } from '../install/loopscope-install';
export { loopscopePaths } from '../install/loopscope-paths';
