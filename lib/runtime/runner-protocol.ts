/**
 * Messages between the server and the runner child process (Node IPC, JSON-serialised).
 * Shared by both sides; the runner validates what it receives.
 */
import { z } from 'zod';
import type { ReplayReport } from '../replay/replay-report';
import type { Scenario } from './scenario';
import { PauseDecisionSchema, RunModeSchema, type PauseInfo } from './step-protocol';

/** What the caller asks to be done with the interrupts of the last model message. */
export const ResumeRequestSchema = z.object({
  respond: z.array(z.object({ name: z.string(), ref: z.string().optional(), output: z.unknown() })).optional(),
  restart: z
    .array(
      z.object({
        name: z.string(),
        ref: z.string().optional(),
        resumed: z.unknown().optional(),
        replaceInput: z.unknown().optional(),
      }),
    )
    .optional(),
});
export type ResumeRequest = z.infer<typeof ResumeRequestSchema>;

export const GenerateCommandSchema = z.object({
  type: z.literal('generate'),
  requestId: z.string(),
  runId: z.string(),
  scenario: z.string(),
  /** For a resume of a recorded trace: the recorded model, instead of the scenario's scripted one. */
  model: z.string().optional(),
  /** For a resume of a recorded trace: the tools the recorded request offered (those registered here). */
  tools: z.array(z.string()).optional(),
  /** History to continue from (a resume); absent for a fresh run of the scenario's prompt. */
  messages: z.array(z.unknown()).optional(),
  resume: ResumeRequestSchema.optional(),
  /** Step-by-step mode; without it no step hooks are installed. */
  mode: RunModeSchema.optional(),
  /** For a resume: the interrupted generate's span, recorded as an OTel link on the resume's root span. */
  answers: z.object({ traceId: z.string().regex(/^[0-9a-f]{32}$/), spanId: z.string().regex(/^[0-9a-f]{16}$/) }).optional(),
});

/** Replays a recording (spans as OTLP JSON) with models and tools from the recording. */
export const ReplayCommandSchema = z.object({
  type: z.literal('replay'),
  requestId: z.string(),
  runId: z.string(),
  /** The recording, as an OTLP JSON export request. */
  otlp: z.unknown(),
  liveTools: z.boolean(),
  mode: z.enum(['strict', 'lenient']),
  /** Fork: recorded answers replaced, by recorded span (`traceId:spanId`). */
  overrides: z
    .object({
      modelResponses: z.array(z.tuple([z.string(), z.record(z.string(), z.unknown())])).optional(),
      toolOutcomes: z
        .array(
          z.tuple([
            z.string(),
            z.discriminatedUnion('kind', [
              z.object({ kind: z.literal('output'), output: z.unknown() }),
              z.object({ kind: z.literal('interrupt'), metadata: z.unknown() }),
              z.object({ kind: z.literal('error'), message: z.string() }),
            ]),
          ]),
        )
        .optional(),
    })
    .optional(),
});
export type ReplayCommand = z.infer<typeof ReplayCommandSchema>;

export const RunnerCommandSchema = z.discriminatedUnion('type', [
  GenerateCommandSchema,
  ReplayCommandSchema,
  z.object({ type: z.literal('pause-decision'), requestId: z.string(), runId: z.string(), pauseId: z.string(), decision: PauseDecisionSchema }),
  z.object({ type: z.literal('set-mode'), requestId: z.string(), runId: z.string(), mode: RunModeSchema }),
  z.object({ type: z.literal('stop'), requestId: z.string(), runId: z.string() }),
  z.object({ type: z.literal('ping'), sentAt: z.number() }),
  z.object({ type: z.literal('shutdown') }),
]);
export type RunnerCommand = z.infer<typeof RunnerCommandSchema>;
export type GenerateCommand = z.infer<typeof GenerateCommandSchema>;

/** A registered tool as the UI and the validator see it. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  /** `false` for `defineInterrupt` tools: meant to be answered by respond. */
  restartable?: boolean;
  /** The file in `tools/` that defined it. */
  file: string;
}

/** A span that started in the runner; the full span arrives over OTLP when it ends. */
export interface SpanStartEvent {
  runId: string;
  /** The runner request (one generate or replay call of the run) the span belongs to. */
  requestId?: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string>;
  startTimeUnixNano: string;
}

/** [seconds, nanoseconds] since the epoch, as the OpenTelemetry SDK keeps times. */
export type HrTime = [number, number];

/**
 * A span that ended in the runner, as the OpenTelemetry SDK holds it (plain data, JSON over
 * IPC), with the run and request it belongs to. The server reads it only if the OTLP export
 * of the span never arrives (lib/trace/span-from-ended-record.ts).
 */
export interface EndedSpanRecord {
  runId: string;
  requestId: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTime: HrTime;
  endTime: HrTime;
  attributes: Record<string, unknown>;
  events: { name: string; time: HrTime; attributes?: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes?: Record<string, unknown> }[];
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  scope: { name: string; version?: string };
}

export interface GenerateOutcome {
  finishReason?: string;
  text?: string;
  /** The interrupted tool request parts of the final model message. */
  interrupts: unknown[];
  /** The full history after the call, to resume from. */
  messages: unknown[];
}

export interface GenerateFailure {
  message: string;
  /** genkit's status (NOT_FOUND, ABORTED, INVALID_ARGUMENT, …) when the error carried one. */
  status?: string;
  name?: string;
}

export type RunnerEvent =
  | {
      type: 'ready';
      pid: number;
      tools: ToolInfo[];
      /** The models defined in the runner (`scripted/<scenario>`, the hand-written model): what a resume can call. */
      models: string[];
      scenarios: Scenario[];
      problems: { file: string; message: string }[];
    }
  | { type: 'span-starts'; spans: SpanStartEvent[] }
  /** Spans that ended, sent at once so that they survive the runner's death. */
  | { type: 'span-ends'; spans: EndedSpanRecord[] }
  /** Spans the OTLP exporter delivered (the receiver answered 200): `traceId + spanId` each. */
  | { type: 'spans-exported'; keys: string[] }
  | { type: 'run-trace'; runId: string; requestId: string; traceId: string }
  | {
      type: 'generate-result';
      requestId: string;
      runId: string;
      traceIds: string[];
      /** The root span of the generate call (what a resume of it links to). */
      rootSpan?: { traceId: string; spanId: string };
      outcome?: GenerateOutcome;
      failure?: GenerateFailure;
    }
  | {
      type: 'replay-result';
      requestId: string;
      runId: string;
      traceIds: string[];
      report?: ReplayReport;
      failure?: GenerateFailure;
    }
  | { type: 'pong'; sentAt: number }
  | { type: 'paused'; runId: string; pause: PauseInfo }
  | { type: 'pause-ended'; runId: string; pauseId: string }
  | { type: 'command-result'; requestId: string; ok: boolean; problems?: string[]; message?: string };
