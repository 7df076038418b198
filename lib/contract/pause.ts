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
  /** Tool pause: run the tool with this input instead. */
  z.object({ action: z.literal('edit-input'), input: JsonValueSchema, force: z.boolean().optional() }),
  /** Tool pause: do not run the tool; this is its output. */
  z.object({ action: z.literal('answer'), output: JsonValueSchema, force: z.boolean().optional() }),
  /** Tool pause: a real genkit interrupt with this metadata (answer it later by respond/restart). */
  z.object({ action: z.literal('interrupt'), metadata: JsonValueSchema.optional() }),
  /** Tool pause: the tool fails with this message. */
  z.object({ action: z.literal('fail'), message: z.string().min(1).max(10_000) }),
]);
export type PauseDecision = z.infer<typeof PauseDecisionSchema>;

/** `POST /api/runs/{runId}/pauses/{pauseId}`. */
export const PauseDecisionRequestSchema = z.object({ decision: PauseDecisionSchema });

/** Where a run is paused. */
export const PauseInfoSchema = z.object({
  pauseId: z.string(),
  kind: z.enum(['model', 'tool']),
  /** Model pauses: which model call of the run (1-based). */
  modelTurn: z.number().optional(),
  /** Tool pauses: the request about to run. */
  tool: z.object({ name: z.string(), ref: z.string().optional(), input: z.unknown().optional() }).optional(),
  /** Milliseconds since the epoch. */
  pausedAt: z.number(),
  /** The trace the paused step belongs to, when known. */
  traceId: z.string().optional(),
});
export type PauseInfo = z.infer<typeof PauseInfoSchema>;
