/**
 * The wire of attached apps (issue 16): the genkit runtimes Loopscope is attached to (the app
 * `loopscope start` runs dials in; others are found through their runtime files,
 * `.genkit/runtimes/*.json`), their actions as the reflection API lists them, the
 * app process `loopscope start -- <cmd>` supervises, and running one of their actions.
 */
import { z } from 'zod';
import { RunModeSchema } from './run-mode';
import { JsonValueSchema } from './json-value';
import { AiSdkAppViewSchema } from './attach-ai-sdk';

/** Which genkit runtime an attached app is (from its runtime file's `genkitVersion`). */
export const AttachedRuntimeKindSchema = z.enum(['genkit-js', 'genkit-go', 'genkit-python']);
export type AttachedRuntimeKind = z.infer<typeof AttachedRuntimeKindSchema>;

/** One action of an attached runtime: `key` is the reflection API's (`/flow/planTrip`), `type` its first segment (`flow`, `tool`, `model`, `prompt`, `util`, …). */
export const RuntimeActionSchema = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  /** JSON schemas as the runtime reports them (they may hold `$defs` / `$ref`). */
  inputSchema: JsonValueSchema.optional(),
  outputSchema: JsonValueSchema.optional(),
});
export type RuntimeAction = z.infer<typeof RuntimeActionSchema>;

export const AttachedRuntimeSchema = z.object({
  /** The runtime's id: from its registration when it dialed in (genkit: its pid), else from its runtime file (genkit JS: `<pid>-<port>`) — a restarted app gets a new one. */
  id: z.string(),
  name: z.string(),
  runtime: AttachedRuntimeKindSchema,
  pid: z.number().int(),
  /** The `genkitVersion` it registered with or its runtime file names, e.g. `nodejs/1.42.0`. */
  genkitVersion: z.string().optional(),
  /** The project folder whose `.genkit/runtimes/` holds its file (a runtime that dialed in: the app's folder). */
  projectDir: z.string(),
  actions: z.array(RuntimeActionSchema),
  /** Why the actions could not be listed (the runtime answered its health check but not `/api/actions`). */
  problem: z.string().optional(),
  /**
   * genkit JS: whether the app registered Loopscope's step middleware (`plugins: [loopscope()]`,
   * seen in its reflection API's `GET /api/values?type=middleware`), so its generates can be
   * stepped. Absent when it could not be asked (another runtime, or no answer).
   */
  stepPlugin: z.boolean().optional(),
  /**
   * Set when Loopscope reaches the runtime through genkit's reflection server over HTTP (found by
   * its runtime file, not dialed in): that server checks neither Host nor Origin, so a web page
   * that rebinds a name to 127.0.0.1 can run the app's actions. The sentence says so and how to close it.
   */
  reflectionWarning: z.string().optional(),
});
export type AttachedRuntime = z.infer<typeof AttachedRuntimeSchema>;

export const AppLogLineSchema = z.object({ stream: z.enum(['stdout', 'stderr', 'loopscope']), text: z.string(), time: z.number() });
export type AppLogLine = z.infer<typeof AppLogLineSchema>;

/** The app `loopscope start -- <cmd>` runs as a supervised child. */
export const AppProcessStatusSchema = z.object({
  command: z.array(z.string()),
  cwd: z.string(),
  state: z.enum(['starting', 'running', 'exited', 'restarting', 'stopped']),
  pid: z.number().int().optional(),
  /** How many times it was started again after it exited (or was restarted by hand). */
  restarts: z.number().int(),
  lastExit: z.object({ code: z.number().nullable(), signal: z.string().nullable(), time: z.number() }).optional(),
  /** Its last lines of output, oldest first (text, never HTML). */
  logs: z.array(AppLogLineSchema),
});
export type AppProcessStatus = z.infer<typeof AppProcessStatusSchema>;

/** `GET /api/runtimes`. */
export const RuntimesResponseSchema = z.object({
  runtimes: z.array(AttachedRuntimeSchema),
  /** Present when Loopscope was started with an app command. */
  app: AppProcessStatusSchema.optional(),
  /** The folders whose `.genkit/runtimes/` Loopscope watches. */
  watching: z.array(z.string()),
  /** The AI SDK apps that talked to Loopscope through `loopscope/ai-sdk` (lib/contract/attach-ai-sdk.ts), the most recently seen first. */
  aiSdkApps: z.array(AiSdkAppViewSchema).optional(),
});
export type RuntimesResponse = z.infer<typeof RuntimesResponseSchema>;

/** `POST /api/runs` for an attached runtime: run one of its actions (a flow, a tool, `/util/generate`, …). */
export const RunActionRequestSchema = z.object({
  runtimeId: z.string().min(1, 'name an attached runtime').max(200),
  /** An action key as listed (`/flow/planTrip`), or a flow / tool name, resolved against the list. */
  action: z.string().min(1, 'name an action').max(500),
  input: JsonValueSchema.optional(),
  /**
   * A stepped run (genkit JS apps with `plugins: [loopscope()]`; action `/util/generate`, or a flow,
   * whose generates are stepped): answered at once, 202 `{run}`, and paused as the mode says, like a
   * scenario's run.
   */
  mode: RunModeSchema.optional(),
});
export type RunActionRequest = z.infer<typeof RunActionRequestSchema>;

/** How an action run in an attached runtime ended; an interrupt is not an error (genkit #4637). */
export const RunActionOutcomeSchema = z.enum(['ok', 'interrupted', 'error']);

export const RunActionResultSchema = z.object({
  runtimeId: z.string(),
  action: z.string(),
  outcome: RunActionOutcomeSchema,
  /** The trace the run recorded (from the reflection API's answer): Loopscope's list and graph show it. */
  traceId: z.string().optional(),
  output: JsonValueSchema.optional(),
  /** The runtime's error (outcome `error`), or what an interrupted tool run said. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** A sentence on what this outcome means here (e.g. why a tool run alone shows no interrupt data). */
  note: z.string().optional(),
  durationMs: z.number(),
});
export type RunActionResult = z.infer<typeof RunActionResultSchema>;

/** `POST /api/runs` answer for an attached runtime's action. */
export const RunActionResponseSchema = z.object({ result: RunActionResultSchema });
export type RunActionResponse = z.infer<typeof RunActionResponseSchema>;
