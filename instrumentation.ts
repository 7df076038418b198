/**
 * Starts the runners with the server, so the first run does not wait for their cold start
 * (~1.5 s); when the server started the developer's app, once it attached (lib/server/runners/start-runners.ts).
 * Under scripts/start.js (`npm start`, `loopscope start`) the context exists already and the
 * script started the runners with it: then this imports nothing more. Loading Next's own copy of
 * lib/server here took ≈ 60 ms of the server's thread while Next prepared, on the way to the first
 * page and to attaching the app (docs/performance.md, "Starting the package"); the routes that
 * need it load it when first asked.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { existingAppContext } = await import('./lib/server/app-context-holder');
  if (existingAppContext()) return;
  const [{ getAppContext }, { startRunners }] = await Promise.all([import('./lib/server/app-context'), import('./lib/server/runners/start-runners')]);
  startRunners(getAppContext());
}
