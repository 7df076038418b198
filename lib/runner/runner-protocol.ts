/**
 * Messages between the server and the runner child process (Node IPC, JSON-serialised).
 * Shared by both sides; the runner validates what it receives.
 */
import path from 'node:path';
import { z } from 'zod';
import { AiSdkScriptedResumeSchema } from '../contract/ai-sdk-scenario';
import { SpanRefSchema, TraceIdSchema } from '../contract/ids';
import { PauseDecisionSchema, type PauseInfo } from '../contract/pause';
import { RealModelChoiceSchema } from '../contract/provider';
import type { ReplayReport } from '../contract/replay';
import { ResumeAnswersSchema, type ResumeAnswers } from '../contract/resume-answers';
import { RunModeSchema } from '../contract/run-mode';
import type { GenerateFailure } from '../contract/run-session';
import type { Scenario } from '../contract/scenario';
import type { SpanStartEvent } from '../contract/span-start';
import type { ToolInfo } from '../contract/tool-info';

// Wire types that the page sees too live in lib/contract; runner code keeps these names.
export type { GenerateFailure, SpanStartEvent, ToolInfo };
/** What the caller asks to be done with the interrupts of the last model message. */
export const ResumeRequestSchema = ResumeAnswersSchema;
export type ResumeRequest = ResumeAnswers;

/**
 * Frames of the runner's spool file (lib/runner/span-batch-frames.ts) that a `span-events`
 * message announces: `length` bytes from `offset`, whole frames, in the file as it is in
 * `epoch` (the count of times the runner emptied it).
 */
export interface SpoolRange {
  epoch: number;
  offset: number;
  length: number;
}

/**
 * What the server has read of the runner's spool: every byte before `bytes` in `epoch`. It
 * goes with the commands the server sends often (a generate or replay, a ping): the runner
 * empties its spool once every frame in it was read.
 */
const SpoolReadSchema = z.object({ epoch: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() });
export type SpoolRead = z.infer<typeof SpoolReadSchema>;

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
  answers: SpanRefSchema.optional(),
  /** For the next call of an AI SDK scenario: its approve / deny / respond answers to the calls waiting in `messages`. */
  aiSdkAnswers: AiSdkScriptedResumeSchema.optional(),
  /** A real model to play the scenario's prompt and tools on (the endpoint is the runner's environment: lib/runtimes/genkit-js/run/provider-model.ts); absent: the scripted model. */
  provider: RealModelChoiceSchema.optional(),
  spoolRead: SpoolReadSchema.optional(),
});

/** An absolute path: the server resolves every name before it reaches the runner. */
const AbsolutePathSchema = z.string().refine((value) => path.isAbsolute(value), 'expected an absolute path');

/**
 * Where the runner reads a recording from: a saved file (its absolute path inside the saved
 * folder), or captured traces in causal order, each with the file that holds it (the
 * store's trace file in its data folder, or a saved file holding that trace). The runner
 * reads the files itself with lib/store's loadTraceFile — only trace files, never the store's indexes — so
 * a recording never travels over IPC.
 */
export const RecordingSourceSchema = z.union([
  z.object({ savedFile: AbsolutePathSchema }),
  z.object({ traces: z.array(z.object({ traceId: TraceIdSchema, file: AbsolutePathSchema })).min(1).max(50) }),
]);
export type RecordingSource = z.infer<typeof RecordingSourceSchema>;

/** Replays a recording with models and tools from the recording. */
export const ReplayCommandSchema = z.object({
  type: z.literal('replay'),
  requestId: z.string(),
  runId: z.string(),
  /** Where the recording is; the runner loads it with lib/store's loadTraceFile. */
  recording: RecordingSourceSchema,
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
  spoolRead: SpoolReadSchema.optional(),
});
export type ReplayCommand = z.infer<typeof ReplayCommandSchema>;

export const RunnerCommandSchema = z.discriminatedUnion('type', [
  GenerateCommandSchema,
  ReplayCommandSchema,
  z.object({ type: z.literal('pause-decision'), requestId: z.string(), runId: z.string(), pauseId: z.string(), decision: PauseDecisionSchema }),
  z.object({ type: z.literal('set-mode'), requestId: z.string(), runId: z.string(), mode: RunModeSchema }),
  z.object({ type: z.literal('stop'), requestId: z.string(), runId: z.string() }),
  z.object({ type: z.literal('ping'), sentAt: z.number(), spoolRead: SpoolReadSchema.optional() }),
  z.object({ type: z.literal('shutdown') }),
]);
export type RunnerCommand = z.infer<typeof RunnerCommandSchema>;
export type GenerateCommand = z.infer<typeof GenerateCommandSchema>;

// A span that ended in the runner, as it travels over IPC: a wire record of the contract.
export type { EndedSpanRecord, HrTime } from '../contract/ended-span';
import type { EndedSpanRecord } from '../contract/ended-span';

export interface GenerateOutcome {
  finishReason?: string;
  text?: string;
  /** The interrupted tool request parts of the final model message. */
  interrupts: unknown[];
  /** The full history after the call, to resume from. */
  messages: unknown[];
}

export type RunnerEvent =
  | {
      type: 'ready';
      pid: number;
      /** The tools each runtime of the runner loaded, by runtime id (each its own namespace). */
      toolsByRuntime: Record<string, ToolInfo[]>;
      /** The models defined in the runner (`scripted/<scenario>` of every runtime, the hand-written model): what a resume can call. */
      models: string[];
      scenarios: Scenario[];
      problems: { file: string; message: string }[];
    }
  /**
   * Spans that started, and spans that ended (sent at once, so they survive the runner's
   * death: what the server stores), in one message per flush; a span can start in one flush
   * and end in the next, so the starts are read first, and a span that started and ended
   * before its start left is sent by its end alone (runner-span-outbox.ts). `spooled`: the
   * spool's frames this message announces, by their byte range, queued before `starts` and
   * `ends`, which hold only what the spool could not take (lib/runner/span-batch-frames.ts,
   * `spanEventsOf`). `then`: the event that follows these spans (a request's result, a
   * pause), in the same message.
   */
  | { type: 'span-events'; starts: SpanStartEvent[]; ends: EndedSpanRecord[]; spooled?: SpoolRange; then?: RunnerEvent }
  | {
      type: 'generate-result';
      requestId: string;
      runId: string;
      traceIds: string[];
      /** The root span of the generate call (what a resume of it links to). */
      rootSpan?: { traceId: string; spanId: string };
      outcome?: GenerateOutcome;
      failure?: GenerateFailure;
      /** Stopped while its code ran (a tool that never settles): the result left that code running, so the runner must be replaced. */
      codeLeftRunning?: true;
    }
  | {
      type: 'replay-result';
      requestId: string;
      runId: string;
      traceIds: string[];
      report?: ReplayReport;
      failure?: GenerateFailure;
      codeLeftRunning?: true;
    }
  | { type: 'pong'; sentAt: number }
  | { type: 'paused'; runId: string; pause: PauseInfo }
  | { type: 'pause-ended'; runId: string; pauseId: string }
  | { type: 'command-result'; requestId: string; ok: boolean; problems?: string[]; message?: string };
