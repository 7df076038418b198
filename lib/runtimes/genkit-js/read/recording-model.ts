/**
 * A recording of genkit calls, as a replay needs it: the chain of steps (top-level generates
 * and tools run on their own) in causal order, each with what it was called with, its model
 * calls and tool executions as recorded, and how it ended. Read by recording.ts.
 */
import type { StepOutcome } from '../../../contract/replay';
import type { RecordedToolDefinition } from '../../../loop/resume-model';

export type { RecordedToolDefinition };

import type { RecordedToolExecution, RecordedToolOutcome, SpanRef } from '../../../loop/recorded-calls';

// The runtime-free parts of a recording: one definition for every dialect's.
export type { RecordedToolExecution, RecordedToolOutcome, SpanRef };

export interface RecordedModelCall extends SpanRef {
  /** 1-based position among the model calls of its step. */
  ordinal: number;
  model: string;
  /** The request the model received (`messages`, `tools`, `config`, `output`); parsed on first read. */
  readonly request: Record<string, unknown>;
  /** The request as recorded (JSON text): a replayed request that serialises the same is equal without parsing. */
  rawRequest?: string;
  /** What it answered (`message`, `finishReason`, …), or the error it failed with. */
  response?: Record<string, unknown>;
  errorMessage?: string;
}

/** How a step ended in the recording (and, after a replay, in the replay; `stopped`: a strict replay stopped at its first divergence). */
/** How a step ended in the recording (and, after a replay, in the replay): the contract's definition. */
export type { StepOutcome } from '../../../contract/replay';

interface StepBase extends SpanRef {
  /** 0-based position in the chain. */
  index: number;
  label: string;
  outcome: StepOutcome;
  toolExecutions: RecordedToolExecution[];
}

export interface GenerateStep extends StepBase {
  kind: 'generate';
  /** The recorded generate options (model, messages, tools, config, resume, maxTurns, …). Never mutate. */
  options: Record<string, unknown>;
  model: string;
  modelCalls: RecordedModelCall[];
  /** For a resume: the step whose history it continues, when that step is in the recording. */
  continues?: number;
  /** For a resume that repeats an earlier resume of the same step with the same parts: that step (a retry reuses its messages). */
  retryOf?: number;
  /** For a resume: the recorded history, un-mutated (sent when the step it continues is not in the recording or failed to replay). */
  history?: unknown[];
}

export interface ToolAloneStep extends StepBase {
  kind: 'tool';
  name: string;
  input: unknown;
}

export type ReplayStep = GenerateStep | ToolAloneStep;

export interface Recording {
  steps: ReplayStep[];
  /** Every tool the recorded model requests offered, by name (the last definition seen wins). */
  toolDefinitions: Map<string, RecordedToolDefinition>;
  /** Every model name the recorded generates called. */
  models: Set<string>;
  spanCount: number;
}


/** How the graph tied a resume to the generate it continues (lib/graph/match-resumes.ts). */
export interface ResumeContinuation {
  /** The interrupted generate's id (`traceId:spanId`), when it is in the recording. */
  answersGenerateId?: string;
  /** The outputs reused as pendingOutput, by `name#ref` (the recorded history may have lost the marker: bug 3). */
  pendingOutputs: Map<string, unknown>;
}
