/**
 * What the genkit Go runner (go/runner) writes on stdout while it steps a run, one JSON line
 * each, beside its `ready` and `result` lines: a pause and its end, the start of a span of a
 * stepped run, and the answer to a step command (go/runner/step.go, step_commands.go).
 */
import { z } from 'zod';
import { PauseInfoSchema } from './pause';
import { SpanStartEventSchema } from './span-start';

export const GoRunnerStepLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('paused'), runId: z.string(), requestId: z.string(), pause: PauseInfoSchema }),
  z.object({ type: z.literal('pause-ended'), runId: z.string(), requestId: z.string(), pauseId: z.string() }),
  z.object({ type: z.literal('span-start'), span: SpanStartEventSchema }),
  z.object({ type: z.literal('command-result'), requestId: z.string(), ok: z.boolean(), problems: z.array(z.string()).optional(), message: z.string().optional() }),
]);
export type GoRunnerStepLine = z.infer<typeof GoRunnerStepLineSchema>;
