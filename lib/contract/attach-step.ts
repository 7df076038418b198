/**
 * Stepping an attached app's generate (issue 16, item 4): the wire between Loopscope's step
 * middleware inside the app (lib/runtimes/genkit-js/app-plugin, added by `plugins: [loopscope()]`) and the
 * Loopscope server, which holds the run's mode and its pauses as it does for its own runners.
 *
 * Loopscope starts the generate through the app's reflection API with
 * `use: [{ name: 'loopscope/step', config: AttachStepConfig }]`; at every model call and tool
 * execution the middleware asks the server (`POST /attach/step/hook`), which answers at once
 * when the run's mode wants no pause, or opens a pause the page shows. The middleware then
 * waits for the decision (`POST /attach/step/wait`, held up to `WAIT_HOLD_MS`, asked again while
 * the pause is open), checks it against the app's own tool schemas, and says what it found
 * (`POST /attach/step/ack`): a refused decision leaves the pause open and the page is told why.
 *
 * The requests carry the run's own step token (`Authorization: Bearer <token>`), valid only
 * for that run while it runs; they are not browser requests (no Origin), as for the OTLP door.
 */
import { z } from 'zod';
import { PauseActionSchema, PauseDecisionSchema } from './pause';

/** The step middleware's name: in the runner, and as an attached app registers it (`use: [{name}]` through reflection). */
export const STEP_MIDDLEWARE = 'loopscope/step';

/**
 * Where a stepped flow's config travels: the action context of the flow's `runAction`, which genkit
 * hands on to every generate inside it; the plugin adds the step middleware to those generates.
 */
export const STEP_CONTEXT_KEY = 'loopscope/step';

/** How long the server holds a `wait` before answering `{ waiting: true }` (the middleware asks again). */
export const WAIT_HOLD_MS = 20_000;

/** The middleware's config in the generate's `use` (set by Loopscope, through reflection). */
export const AttachStepConfigSchema = z.object({
  runId: z.string().min(1),
  /** Loopscope's own origin, e.g. `http://127.0.0.1:4747`. */
  url: z.string().url(),
  /** The run's step token. */
  token: z.string().min(16),
});
export type AttachStepConfig = z.infer<typeof AttachStepConfigSchema>;

const JsonInput = z.unknown();

/** A span the app has started and not ended (its exporter sends it when it ends): drawn running until then. */
export const AttachOpenSpanSchema = z.object({
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  name: z.string().max(500),
  attributes: z.record(z.string().max(200), z.string().max(100_000)),
  startTimeUnixNano: z.string().regex(/^\d{1,20}$/),
  /** The instrumentation scope that started it, when the app says. */
  scope: z.object({ name: z.string().max(200), version: z.string().max(100).optional() }).optional(),
});
export type AttachOpenSpan = z.infer<typeof AttachOpenSpanSchema>;

/** `POST /attach/step/hook`: the generate reached a model call or a tool execution. */
export const AttachHookRequestSchema = z.object({
  runId: z.string().min(1),
  /** The trace the step belongs to (the app's active span): the run's live graph follows it. */
  traceId: z.string().regex(/^[0-9a-f]{32}$/).optional(),
  /**
   * The app's active span as it started (the generate the step is in). genkit in dev mode
   * exports a span only when it ends, so without this a paused run's graph has nothing to draw
   * the pause on; the page shows it running until the ended span arrives.
   */
  openSpan: AttachOpenSpanSchema.optional(),
  /**
   * Every span of the trace the app has open (the AI SDK: the call's `invoke_agent`, its step,
   * the `chat` or `execute_tool` the pause stands before), each told once by the server.
   */
  openSpans: z.array(AttachOpenSpanSchema).max(100).optional(),
  pause: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('model'), modelTurn: z.number().int().positive(), actions: z.array(PauseActionSchema) }),
    z.object({ kind: z.literal('tool'), tool: z.object({ name: z.string().min(1), ref: z.string().optional(), input: JsonInput }), actions: z.array(PauseActionSchema) }),
  ]),
});
export type AttachHookRequest = z.infer<typeof AttachHookRequestSchema>;

/** The answer to a hook: go on at once, or a pause was opened; or the run was stopped. */
export const AttachHookResponseSchema = z.union([
  z.object({ decision: PauseDecisionSchema }),
  z.object({ pauseId: z.string() }),
  z.object({ stopped: z.string() }),
]);
export type AttachHookResponse = z.infer<typeof AttachHookResponseSchema>;

/** `POST /attach/step/wait`. */
export const AttachWaitRequestSchema = z.object({ runId: z.string().min(1), pauseId: z.string().min(1) });

export const AttachWaitResponseSchema = z.union([
  z.object({ decision: PauseDecisionSchema }),
  z.object({ waiting: z.literal(true) }),
  z.object({ stopped: z.string() }),
]);
export type AttachWaitResponse = z.infer<typeof AttachWaitResponseSchema>;

/** `POST /attach/step/ack`: the app checked the decision; `problems` empty: applied. */
export const AttachAckRequestSchema = z.object({
  runId: z.string().min(1),
  pauseId: z.string().min(1),
  problems: z.array(z.string().max(2_000)).max(100),
  /** Applied although it breaks rules (a forced decision): the problems are warnings. */
  applied: z.boolean(),
});
export type AttachAckRequest = z.infer<typeof AttachAckRequestSchema>;
