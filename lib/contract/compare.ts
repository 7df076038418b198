/**
 * `POST /api/compare`: one scenario played on two runtimes — a genkit Go scenario and the
 * genkit JS scenario it mirrors — run to the end (their scripted answers included) and compared
 * by lib/graph/compare-runs.ts: outcomes, span shapes, wire shapes.
 */
import { z } from 'zod';

export const CompareRequestSchema = z.object({
  /** The genkit Go scenario; its `mirrors` names the genkit JS one. */
  scenario: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a scenario name'),
});
export type CompareRequest = z.infer<typeof CompareRequestSchema>;

export const DifferenceSchema = z.object({ aspect: z.enum(['outcome', 'spans', 'wire']), where: z.string(), a: z.string(), b: z.string() });

/** The side's Graph JSON summary (docs/architecture.md, "Graph JSON"). */
const SummarySchema = z.object({
  traces: z.number(),
  generates: z.number(),
  modelCalls: z.number(),
  toolCalls: z.number(),
  interrupts: z.number(),
  responds: z.number(),
  restarts: z.number(),
  pendingReused: z.number(),
  errors: z.number(),
  finishReason: z.string().nullable(),
});

const ComparedSideSchema = z.object({
  label: z.string(),
  runtimes: z.array(z.string()),
  summary: SummarySchema,
  /** The traces the side recorded (each call; Go's restarted tools in traces of their own). */
  traceIds: z.array(z.string()),
});

export const CompareResponseSchema = z.object({
  a: ComparedSideSchema,
  b: ComparedSideSchema,
  differences: z.array(DifferenceSchema),
  same: z.array(z.string()),
});
export type CompareResponse = z.infer<typeof CompareResponseSchema>;
