/**
 * How Loopscope talks to one genkit runtime's reflection API. Two ways, the same calls and the
 * same answers (the HTTP API's shapes), so the registry and the runs never ask which:
 *
 * - `http`: genkit's reflection server, at the URL its runtime file names — an app Loopscope
 *   found running (`loopscope start` without a command, `--attach`), or one whose genkit is too old
 *   to dial in. That server checks neither Host nor Origin: a web page that rebinds a name to
 *   127.0.0.1 can call it too (docs/security-model.md, "Attached apps").
 * - `dialed-in`: genkit's reflection API v2 — the app `loopscope start -- <cmd>` runs connects OUT
 *   to Loopscope's reflection door (GENKIT_REFLECTION_V2_SERVER, a WebSocket with a secret in its
 *   path) and answers JSON-RPC there; it listens on no port (dialed-runtime.ts).
 */

/** What `POST /api/runAction` answered: its parsed body, and the trace id genkit names as soon as the action's root span starts. */
export interface RunActionAnswer {
  body: unknown;
  headerTraceId?: string;
}

export interface ReflectionTransport {
  readonly kind: 'http' | 'dialed-in';
  /** Where the runtime is reached, for messages: its reflection URL, or the connection it opened. */
  readonly where: string;
  /** True while the runtime answers (HTTP: `GET /api/__health`; dialed in: its connection is open). */
  healthy(): Promise<boolean>;
  /** Tells the runtime where to send its traces (`POST /api/notify`; dialed in: `configure`). */
  notify(telemetryServerUrl: string): Promise<void>;
  /** The action map as genkit lists it (key → `{key, name, description, inputSchema, outputSchema, metadata}`). @throws when the runtime does not list them */
  listActions(): Promise<unknown>;
  /** genkit's registered values of a type (`middleware`, `defaultModel`), by name. @throws LoopscopeError UNAVAILABLE */
  listValues(type: 'middleware' | 'defaultModel'): Promise<Record<string, unknown>>;
  /**
   * Runs one action (`context`: the action context genkit runs it in). A failure of the action
   * is an answer (`{error: {code, message, details}}`), not an exception.
   * @throws LoopscopeError UNAVAILABLE when the runtime cannot be reached, DEADLINE_EXCEEDED past `timeoutMs`
   */
  runAction(options: { key: string; input: unknown; context?: Record<string, unknown>; timeoutMs?: number }): Promise<RunActionAnswer>;
}
