/**
 * Replays on the wire: the request that starts one (`POST /api/replay`), and the report a
 * replay run ends with (in its run session). The report is produced by lib/replay; this is
 * its shape as the page receives it.
 */
import { z } from 'zod';
import { SpanKeySchema, SpanRefSchema } from './ids';
import { TraceSourceSchema } from './trace-source';

export const ReplayModeSchema = z.enum(['strict', 'lenient']);
export type ReplayMode = z.infer<typeof ReplayModeSchema>;

/** Fork: replace one recorded answer (a model call's response or a tool call's output) and go on from there. */
export const ForkRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool'), span: SpanKeySchema, output: z.unknown() }),
  z.object({
    kind: z.literal('model'),
    span: SpanKeySchema,
    message: z.looseObject({ role: z.literal('model'), content: z.array(z.record(z.string(), z.unknown())).min(1, 'the message needs at least one part') }),
  }),
]);
export type ForkRequest = z.infer<typeof ForkRequestSchema>;

/** `POST /api/replay`. */
export const ReplayRequestSchema = z.object({
  /** What to replay: captured traces (a session) or a saved file. */
  source: TraceSourceSchema,
  liveTools: z.boolean().default(false),
  mode: ReplayModeSchema.default('strict'),
  fork: ForkRequestSchema.optional(),
});
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

/** How one step of a chain ended. */
export const StepOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('finished'), finishReason: z.string(), message: z.unknown().optional() }),
  z.object({ kind: z.literal('interrupted'), message: z.unknown().optional() }),
  z.object({ kind: z.literal('error'), message: z.string() }),
  z.object({ kind: z.literal('stopped') }),
]);
export type StepOutcome = z.infer<typeof StepOutcomeSchema>;

export const DivergenceKindSchema = z.enum([
  'model-request',
  'model-extra-call',
  'model-missing-call',
  'tool-input',
  'tool-extra-call',
  'tool-missing-call',
  'tool-outcome',
  'outcome',
]);

/** One place where the replay did not do what the recording did. */
export const DivergenceSchema = z.object({
  /** The chain step (0-based) and its label ("generate 2 (resume)"). */
  step: z.number(),
  stepLabel: z.string(),
  kind: DivergenceKindSchema,
  /** Which call: "model call 2", "tool getWeather", "outcome". */
  call: z.string(),
  /** Which field differs: a JSON path into the request, the tool input/output, or the outcome. */
  field: z.string(),
  recorded: z.unknown(),
  replayed: z.unknown(),
  /** The recorded span of the call, when there is one (to highlight it in the recorded graph). */
  recordedSpan: SpanRefSchema.optional(),
  /** The replayed span of the call, when spans were captured (to highlight it in the replayed graph). */
  replayedSpan: SpanRefSchema.optional(),
  /** One sentence a person can read. */
  message: z.string(),
});
export type Divergence = z.infer<typeof DivergenceSchema>;

const CountsSchema = z.object({ recorded: z.number(), replayed: z.number() });

export const ReplayStepResultSchema = z.object({
  index: z.number(),
  label: z.string(),
  kind: z.enum(['generate', 'tool']),
  recorded: StepOutcomeSchema,
  /** Absent when the chain stopped before this step (strict mode). */
  replayed: StepOutcomeSchema.optional(),
  matched: z.boolean(),
  modelCalls: CountsSchema,
  toolCalls: CountsSchema,
  /** How the history sent by a resume was obtained. */
  history: z.enum(['replayed', 'replayed-retry', 'recorded']).optional(),
});
export type ReplayStepResult = z.infer<typeof ReplayStepResultSchema>;

export const ReplayReportSchema = z.object({
  /** True when every step ended as recorded and no call diverged. */
  matched: z.boolean(),
  mode: ReplayModeSchema,
  liveTools: z.boolean(),
  steps: z.array(ReplayStepResultSchema),
  divergences: z.array(DivergenceSchema),
  /** Strict mode: the step the replay stopped at (its first divergence). */
  stoppedAtStep: z.number().optional(),
  durationMs: z.number(),
  /** Spans in the recording. */
  spanCount: z.number(),
  /** Filled by the runner: the traces the replay recorded. */
  replayedTraceIds: z.array(z.string()).optional(),
});
export type ReplayReport = z.infer<typeof ReplayReportSchema>;

/** A replay run: what it replays, how, and (when done) how it compared with the recording. */
export const ReplayInfoSchema = z.object({
  source: TraceSourceSchema,
  liveTools: z.boolean(),
  mode: ReplayModeSchema,
  /** A fork: which recorded answer was replaced (in words). */
  fork: z.string().optional(),
  report: ReplayReportSchema.optional(),
  /** Each step's outcome in words, recorded and replayed (the report's steps, in order), as the CLI prints them. */
  stepOutcomes: z.array(z.object({ recorded: z.string(), replayed: z.string() })).optional(),
});
export type ReplayInfo = z.infer<typeof ReplayInfoSchema>;
