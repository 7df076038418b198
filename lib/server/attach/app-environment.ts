/**
 * The environment `loopscope start -- <cmd>` gives the app, modelled on what genkit's own CLI
 * gives it under `genkit start` (genkit-tools `getDevEnvVars` / `startDevProcessManager`:
 * the parent's environment plus GENKIT_ENV=dev and GENKIT_TELEMETRY_SERVER, GENKIT_ENABLE_REALTIME_TELEMETRY=true
 * unless disabled; some versions also GENKIT_RUNTIME_ID). What Loopscope sets and why:
 *
 * - GENKIT_ENV=dev — genkit starts its reflection server only in dev mode, and then writes the
 *   runtime file Loopscope discovers it by.
 * - GENKIT_TELEMETRY_SERVER=http://127.0.0.1:<port>/genkit — genkit then POSTs every ended span
 *   as TraceData to `<that>/api/traces` (and logs to `<that>/api/otlp`): Loopscope's
 *   telemetry-server door (lib/server/attach/genkit-telemetry.ts). The `/genkit` prefix keeps
 *   those paths apart from Loopscope's own token-guarded `/api`. No exporter code in the app.
 * - GENKIT_REFLECTION_HOST=127.0.0.1 — genkit JS's default already; set so an inherited value
 *   cannot put the reflection server (no authentication) on a public interface.
 *
 * Not set: GENKIT_ENABLE_REALTIME_TELEMETRY (it also exports every span when it *starts*, with
 * endTime 0; Loopscope stores ended spans, and live views come from the ends anyway) and
 * GENKIT_RUNTIME_ID (genkit JS then writes that id in the runtime file while its health check
 * still expects `<pid>-<port>`; without it a restarted app gets a new id, as the issue asks).
 *
 * Removed from the inherited environment: Loopscope's own settings (LOOPSCOPE_*, among them the
 * API token), and what the server process set for itself (PORT, NODE_ENV=production, Next's
 * internals) — an app that reads PORT would otherwise try to take Loopscope's.
 */
export const GENKIT_TELEMETRY_PREFIX = '/genkit';

const DROPPED = [/^LOOPSCOPE_/, /^PORT$/, /^NODE_ENV$/, /^NEXT_/, /^__NEXT/, /^TURBOPACK/, /^GENKIT_RUNTIME_ID$/];

/** The app's environment: the inherited one without Loopscope's own, plus genkit's dev-mode variables. */
export function appEnvironment(options: { inherited: NodeJS.ProcessEnv; port: number }): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.inherited)) {
    if (value !== undefined && !DROPPED.some((pattern) => pattern.test(name))) environment[name] = value;
  }
  return {
    ...environment,
    GENKIT_ENV: 'dev',
    GENKIT_TELEMETRY_SERVER: telemetryServerUrl(options.port),
    GENKIT_REFLECTION_HOST: '127.0.0.1',
  };
}

/** Where genkit runtimes send their traces: Loopscope's telemetry-server door. */
export function telemetryServerUrl(port: number): string {
  return `http://127.0.0.1:${port}${GENKIT_TELEMETRY_PREFIX}`;
}
