/**
 * The JSON lines the genkit Go runner (go/runner) writes on stdout, one per line: `ready` first,
 * then the answers to the commands lib/runtimes/genkit-go/run/go-runner.ts writes on its stdin —
 * `pong`, `result` (a generate or replay step), `error` (an unknown command), `replay-call` (a
 * replayed generate asks what to answer) — and, while it steps a run, a pause and its end, the
 * start of a span of a stepped run, and the answer to a step command (go/runner/step.go,
 * step_commands.go). go/runner/main_test.go drives the runner's command loop and
 * lib/runtimes/genkit-go/run/go-runner-protocol.test.ts parses every line it printed with these.
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

const SpanRefSchema = z.strictObject({ traceId: z.string().regex(/^[0-9a-f]{32}$/), spanId: z.string().regex(/^[0-9a-f]{16}$/) });

/** A Go tool as `ready` describes it (go/runner/tools_info.go): genkit Go's schemas, and a typed interruptible tool's resume type. */
const GoToolInfoSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  resumeType: z.string().optional(),
  resumeSchema: z.record(z.string(), z.unknown()).optional(),
});

/** The answer to a `generate` or `replay-step` command (go/runner/generate.go `result`, replay.go `replayStepResult`). */
const GoRunnerResultLineSchema = z.strictObject({
  type: z.literal('result'),
  requestId: z.string(),
  /** Every trace the call recorded, in start order; empty when it failed before genkit ran. */
  traceIds: z.array(z.string()),
  traceId: z.string().optional(),
  rootSpan: SpanRefSchema.optional(),
  outcome: z
    .strictObject({
      finishReason: z.string(),
      text: z.string(),
      interrupts: z.array(z.strictObject({ name: z.string(), ref: z.string().optional(), input: z.unknown().optional(), metadata: z.unknown().optional() })),
      messages: z.array(z.unknown()),
    })
    .optional(),
  failure: z.strictObject({ message: z.string(), status: z.string().optional() }).optional(),
  /** A replay step: the message the generate ended with. */
  message: z.unknown().optional(),
});

/** A replayed generate's model request or tool call, for Loopscope's replay session to answer (go/runner/replay.go). */
const GoRunnerReplayCallLineSchema = z.discriminatedUnion('call', [
  z.strictObject({ type: z.literal('replay-call'), requestId: z.string(), callId: z.string(), span: SpanRefSchema.optional(), call: z.literal('model'), request: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('replay-call'), requestId: z.string(), callId: z.string(), span: SpanRefSchema.optional(), call: z.literal('tool'), name: z.string(), input: z.unknown(), live: z.boolean().optional() }),
  z.strictObject({ type: z.literal('replay-call'), requestId: z.string(), callId: z.string(), span: SpanRefSchema.optional(), call: z.literal('tool-outcome'), of: z.string(), name: z.string(), outcome: z.record(z.string(), z.unknown()) }),
]);

/** Every line the Go runner writes. */
export const GoRunnerLineSchema = z.union([
  z.strictObject({ type: z.literal('ready'), pid: z.number().int().positive(), tools: z.array(z.string()), toolInfo: z.array(GoToolInfoSchema) }),
  z.strictObject({ type: z.literal('pong'), requestId: z.string() }),
  GoRunnerResultLineSchema,
  z.strictObject({ type: z.literal('error'), requestId: z.string(), message: z.string() }),
  GoRunnerReplayCallLineSchema,
  GoRunnerStepLineSchema,
]);
export type GoRunnerLine = z.infer<typeof GoRunnerLineSchema>;
