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
 * - GENKIT_REFLECTION_V2_SERVER=ws://127.0.0.1:<port>/genkit/reflection/<secret> — genkit's
 *   reflection API v2 (genkit JS ≥ 1.31, Go ≥ 1.7, Python ≥ 0.6): the app starts NO reflection
 *   server and writes no runtime file; it connects to Loopscope's reflection door
 *   (reflection-door.ts) and answers there. genkit's reflection server checks neither Host nor
 *   Origin, so any port it listened on would be open to a page that rebinds a name to 127.0.0.1
 *   (issue 36); the door checks Host, refuses any Origin and wants the secret, which only this
 *   environment carries. (genkit's own CLI sets this variable in its experimental v2 mode.)
 * - LOOPSCOPE_URL=http://127.0.0.1:<port> and LOOPSCOPE_APP_SECRET=<secret> — for an app using
 *   `loopscope/ai-sdk` (the Vercel AI SDK): where Loopscope is, and the AI SDK app door's secret
 *   (ai-sdk-door.ts), which lets this app — and only it — make its own generateText calls runs
 *   that Loopscope steps. Set after Loopscope's own LOOPSCOPE_* are removed (below).
 * - GENKIT_REFLECTION_HOST=127.0.0.1 — for a genkit too old to read the v2 variable, which starts
 *   its reflection server instead: genkit JS's default already; set so an inherited value cannot
 *   put that server on a public interface.
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
import { AI_SDK_APP_ENVIRONMENT } from '../../contract/attach-ai-sdk';

export const GENKIT_TELEMETRY_PREFIX = '/genkit';

/** Where apps dial in: `<this><secret>` on Loopscope's port (reflection-door.ts). */
export const REFLECTION_DOOR_PREFIX = '/genkit/reflection/';

const DROPPED = [/^LOOPSCOPE_/, /^PORT$/, /^NODE_ENV$/, /^NEXT_/, /^__NEXT/, /^TURBOPACK/, /^GENKIT_RUNTIME_ID$/];

/**
 * The app's environment: the inherited one without Loopscope's own, plus genkit's dev-mode variables.
 * @param options.reflectionSecret the reflection door's secret for this Loopscope server (attach-service.ts)
 * @param options.appSecret the AI SDK app door's secret for this Loopscope server (attach-service.ts)
 */
export function appEnvironment(options: { inherited: NodeJS.ProcessEnv; port: number; reflectionSecret: string; appSecret: string }): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.inherited)) {
    if (value !== undefined && !DROPPED.some((pattern) => pattern.test(name))) environment[name] = value;
  }
  return {
    ...environment,
    GENKIT_ENV: 'dev',
    GENKIT_TELEMETRY_SERVER: telemetryServerUrl(options.port),
    GENKIT_REFLECTION_V2_SERVER: reflectionDoorUrl({ port: options.port, secret: options.reflectionSecret }),
    GENKIT_REFLECTION_HOST: '127.0.0.1',
    [AI_SDK_APP_ENVIRONMENT.url]: `http://127.0.0.1:${options.port}`,
    [AI_SDK_APP_ENVIRONMENT.secret]: options.appSecret,
  };
}

/** The WebSocket URL an app dials in on (reflection-door.ts); the secret is URL-safe (base64url). */
export function reflectionDoorUrl(options: { port: number; secret: string }): string {
  return `ws://127.0.0.1:${options.port}${REFLECTION_DOOR_PREFIX}${options.secret}`;
}

/** Where genkit runtimes send their traces: Loopscope's telemetry-server door. */
export function telemetryServerUrl(port: number): string {
  return `http://127.0.0.1:${port}${GENKIT_TELEMETRY_PREFIX}`;
}
