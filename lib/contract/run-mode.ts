import { z } from 'zod';

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
