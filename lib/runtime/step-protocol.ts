/**
 * Step-by-step runs: run modes, pauses and the decisions that end them. Shared by the
 * runner, the server and the page (plain data + zod schemas for what crosses a boundary).
 */
import { z } from 'zod';

// How a hand-written answer shows in genkit's spans is the genkit dialect's to read.
export { ANSWERED_BY_HAND_ATTRIBUTE, HAND_WRITTEN_MODEL } from '../dialects/genkit-js/loopscope-markers';

export const BreakpointsSchema = z.object({
  /** Pause before every execution of these tools (restarted runs included). */
  tools: z.array(z.string().min(1).max(200)).max(200).default([]),
  /** Pause before these model calls (1-based, counted over the whole run), or every one. */
  modelTurns: z.union([z.literal('all'), z.array(z.number().int().positive()).max(1000)]).default([]),
});
export type Breakpoints = z.infer<typeof BreakpointsSchema>;

/** `run`: no pauses; `step`: before every model call and tool execution; `breakpoints`: where set. */
export const RunModeSchema = z.object({
  kind: z.enum(['run', 'step', 'breakpoints']),
  breakpoints: BreakpointsSchema.optional(),
});
export type RunMode = z.infer<typeof RunModeSchema>;

const JsonSchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonSchema), z.record(z.string(), JsonSchema)]),
);

/** A hand-written model part: text or a tool request. */
export const HandWrittenPartSchema = z.union([
  z.object({ text: z.string() }),
  z.object({ toolRequest: z.object({ name: z.string().min(1), ref: z.string().min(1), input: JsonSchema.optional() }) }),
]);

/** What the developer decides at a pause. */
export const PauseDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('continue') }),
  /** Model pause: answer with these parts instead of calling the model. */
  z.object({ action: z.literal('replace-answer'), parts: z.array(HandWrittenPartSchema).min(1).max(100), force: z.boolean().optional() }),
  /** Tool pause: run the tool with this input instead. */
  z.object({ action: z.literal('edit-input'), input: JsonSchema, force: z.boolean().optional() }),
  /** Tool pause: do not run the tool; this is its output. */
  z.object({ action: z.literal('answer'), output: JsonSchema, force: z.boolean().optional() }),
  /** Tool pause: a real genkit interrupt with this metadata (answer it later by respond/restart). */
  z.object({ action: z.literal('interrupt'), metadata: JsonSchema.optional() }),
  /** Tool pause: the tool fails with this message. */
  z.object({ action: z.literal('fail'), message: z.string().min(1).max(10_000) }),
]);
export type PauseDecision = z.infer<typeof PauseDecisionSchema>;

/** Where a run is paused. */
export interface PauseInfo {
  pauseId: string;
  kind: 'model' | 'tool';
  /** Model pauses: which model call of the run (1-based). */
  modelTurn?: number;
  /** Tool pauses: the request about to run. */
  tool?: { name: string; ref?: string; input?: unknown };
  /** Milliseconds since the epoch. */
  pausedAt: number;
  /** The trace the paused step belongs to, when known. */
  traceId?: string;
}

export function shouldPauseModel(mode: RunMode, modelTurn: number): boolean {
  if (mode.kind === 'step') return true;
  if (mode.kind !== 'breakpoints') return false;
  const turns = mode.breakpoints?.modelTurns ?? [];
  return turns === 'all' || turns.includes(modelTurn);
}

export function shouldPauseTool(mode: RunMode, toolName: string): boolean {
  if (mode.kind === 'step') return true;
  return mode.kind === 'breakpoints' && (mode.breakpoints?.tools ?? []).includes(toolName);
}
