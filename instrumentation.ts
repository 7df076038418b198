/**
 * Starts the runners with the server, so the first run does not wait for their cold start
 * (~1.5 s); when the server started the developer's app, once it attached (lib/server/runners/start-runners.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ getAppContext }, { startRunners }] = await Promise.all([import('./lib/server/app-context'), import('./lib/server/runners/start-runners')]);
  startRunners(getAppContext());
}
