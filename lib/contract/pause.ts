/** Step-by-step runs on the wire: where a run is paused, and the decisions that end a pause. */
import { z } from 'zod';
import { JsonValueSchema } from './json-value';

/** A hand-written model part: text or a tool request. */
export const HandWrittenPartSchema = z.union([
  z.object({ text: z.string() }),
  z.object({ toolRequest: z.object({ name: z.string().min(1), ref: z.string().min(1), input: JsonValueSchema.optional() }) }),
]);

/** What the developer decides at a pause. */
export const PauseDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('continue') }),
  /** Model pause: answer with these parts instead of calling the model. */
  z.object({ action: z.literal('replace-answer'), parts: z.array(HandWrittenPartSchema).min(1).max(100), force: z.boolean().optional() }),
  /** Model pause: call the model with this request instead (the messages as the pause's `request` shows them). */
  z.object({ action: z.literal('edit-request'), request: JsonValueSchema, force: z.boolean().optional() }),
  /** Tool pause: run the tool with this input instead. */
  z.object({ action: z.literal('edit-input'), input: JsonValueSchema, force: z.boolean().optional() }),
  /** Tool pause: do not run the tool; this is its output. */
  z.object({ action: z.literal('answer'), output: JsonValueSchema, force: z.boolean().optional() }),
  /** Tool pause: a real genkit interrupt with this metadata (answer it later by respond/restart). */
  z.object({ action: z.literal('interrupt'), metadata: JsonValueSchema.optional() }),
  /** Model or tool pause (where the pause offers it): the model call or the tool fails with this message. */
  z.object({ action: z.literal('fail'), message: z.string().min(1).max(10_000) }),
]);
export type PauseDecision = z.infer<typeof PauseDecisionSchema>;

/** The decisions there are (`PauseDecision['action']`). */
export const PauseActionSchema = z.enum(['continue', 'replace-answer', 'edit-request', 'edit-input', 'answer', 'interrupt', 'fail']);
export type PauseAction = z.infer<typeof PauseActionSchema>;

/** `POST /api/runs/{runId}/pauses/{pauseId}`. */
export const PauseDecisionRequestSchema = z.object({ decision: PauseDecisionSchema });

/** Where a run is paused. */
export const PauseInfoSchema = z.object({
  pauseId: z.string(),
  kind: z.enum(['model', 'tool']),
  /** Model pauses: which model call of the run (1-based). */
  modelTurn: z.number().optional(),
  /**
   * The decisions this pause takes, as its runtime can carry them out (genkit: a tool can be
   * interrupted; the AI SDK: a model request can be edited, a model call failed). Absent in
   * older runners: genkit's set.
   */
  actions: z.array(PauseActionSchema).optional(),
  /** Model pauses that offer `edit-request`: the request about to be sent, in the runtime's own shape (the AI SDK's prompt messages). */
  request: z.unknown().optional(),
  /** Tool pauses: the request about to run. */
  tool: z.object({ name: z.string(), ref: z.string().optional(), input: z.unknown().optional() }).optional(),
  /** Milliseconds since the epoch. */
  pausedAt: z.number(),
  /** The trace the paused step belongs to, when known. */
  traceId: z.string().optional(),
});
export type PauseInfo = z.infer<typeof PauseInfoSchema>;
