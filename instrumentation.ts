/** Starts the runner with the server, so the first run does not wait for its cold start (~1.5 s). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getAppContext } = await import('./lib/server/app-context');
  getAppContext().supervisor.start();
}
