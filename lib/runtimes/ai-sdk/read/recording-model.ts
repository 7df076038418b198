/**
 * A recording of Vercel AI SDK calls, as a replay needs it (read by recording.ts): each
 * top-level `generateText` call in causal order, with what it was sent, what each model call
 * was sent and answered, what each tool returned or threw, and the settings the spans show
 * (the tools offered, which calls waited for an approval or were approved or denied by a
 * policy, the step limit). Plain data: the replay (lib/runtimes/ai-sdk/run/) turns it into a
 * `LanguageModelV4`, tools and `generateText` options.
 */
import type { StepOutcome } from '../../../contract/replay';
import type { RecordedToolExecution, SpanRef } from '../../../loop/recorded-calls';
import type { AiSdkCallSettings } from './call-settings';

export type { AiSdkCallSettings, RecordedToolExecution, SpanRef, StepOutcome };

/** Which integration recorded the spans: `@ai-sdk/otel`'s `OpenTelemetry` (GenAI conventions) or `LegacyOpenTelemetry` (`ai.*`). */
export type AiSdkSpanSource = 'genai' | 'legacy';

/** One part of a model's answer, in `LanguageModelV4` content terms (JSON: a tool call's input is its JSON text). */
export type AiSdkRecordedContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string; providerExecuted?: true }
  | { type: 'tool-result'; toolCallId: string; toolName: string; result: unknown };

export interface AiSdkRecordedResponse {
  content: AiSdkRecordedContent[];
  /** The AI SDK's unified finish reason (`stop`, `tool-calls`, …). */
  finishReason: string;
  inputTokens?: number;
  outputTokens?: number;
  responseId?: string;
  modelId?: string;
}

export interface AiSdkRecordedModelCall extends SpanRef {
  /** 1-based position among the model calls of its step. */
  ordinal: number;
  /**
   * What the model was sent, in the recorder's own words: `messages` is `gen_ai.input.messages`
   * (the step's messages in the GenAI conventions) or `ai.prompt.messages` (the provider prompt,
   * legacy); `tools` the tool definitions the model got; `config` the call settings recorded
   * (`temperature`, `maxOutputTokens`, …: call-settings.ts).
   */
  request: { messages?: unknown; tools?: unknown; config: AiSdkCallSettings };
  response?: AiSdkRecordedResponse;
  errorMessage?: string;
}

/** A tool as it was offered to the model, and whether the app ran it (`execute`) or handed it back. */
export interface AiSdkRecordedTool {
  name: string;
  type: 'function' | 'provider';
  description?: string;
  inputSchema?: unknown;
  /** A provider tool's id and args (`loopscope-scripted.web_search`). */
  providerId?: string;
  args?: unknown;
  /** False for a tool without `execute`: its calls are handed back to the caller. */
  execute: boolean;
}

/** What the approval setting decided for one tool call: waited for a person, or a policy approved or denied it. */
export type AiSdkApprovalDecision = { type: 'user-approval' } | { type: 'approved' } | { type: 'denied'; reason?: string };

/** How an answering call answered one waiting call of the call it continues. */
export type AiSdkAnswer =
  /** `input`: the call's input in the answering call's history (a client may send another than was asked for: a forged approval). */
  | { kind: 'approve'; toolCallId: string; toolName: string; input?: unknown; /** While reading: an approval inferred from a call that failed before resolving it. */ tentative?: true }
  | { kind: 'deny'; toolCallId: string; toolName: string; reason?: string }
  | { kind: 'result'; toolCallId: string; toolName: string; output: unknown };

export interface AiSdkCallStep extends SpanRef {
  kind: 'generate';
  /** 0-based position in the chain. */
  index: number;
  label: string;
  source: AiSdkSpanSource;
  outcome: StepOutcome;
  provider: string;
  modelId: string;
  /** The call's `telemetry.functionId` (`gen_ai.agent.name`, legacy `ai.telemetry.functionId`), when recorded: the replay's spans carry it too. */
  functionId?: string;
  /** The call settings its first model call was sent (`temperature`, …), passed to `generateText` again. */
  settings: AiSdkCallSettings;
  /** `generateText`'s `system`, when recorded. */
  system?: string;
  /** The messages the call was given (`ModelMessage[]`), as recorded or rebuilt from the GenAI messages: sent when the call it continues is not replayed. */
  messages: unknown[];
  modelCalls: AiSdkRecordedModelCall[];
  toolExecutions: RecordedToolExecution[];
  /** `stopWhen: stepCountIs(maxSteps)`: the recorded step count when the loop stopped at its limit, one more otherwise (an extra model call then shows as one). */
  maxSteps: number;
  /** Tool calls `repairToolCall` fixed, by tool call id: the input the tool ran with. */
  repairs: Record<string, unknown>;
  /** Inputs the SDK refused (`AI_InvalidToolInputError`), by tool name: the input and the validation message the model was shown. */
  invalidInputs: Record<string, { input: unknown; message: string }[]>;
  /** For an answering call: the step it continues, when it is in the recording, and its answers. */
  continues?: number;
  answers?: AiSdkAnswer[];
}

export interface AiSdkRecording {
  runtime: 'ai-sdk';
  steps: AiSdkCallStep[];
  /** Every tool offered in the recording, by name. */
  tools: Map<string, AiSdkRecordedTool>;
  /** What the approval setting decided, by tool call id (absent: not applicable). */
  approvals: Map<string, AiSdkApprovalDecision>;
  /** The approvals were signed (`experimental_toolApprovalSecret`): an answering call refused a signature. */
  signedApprovals: boolean;
  spanCount: number;
}

/** How the graph tied an answering call to the call it answers (lib/graph/match-resumes.ts). */
export interface AiSdkContinuation {
  answersGenerateId?: string;
  resolutions: readonly { kind: string; request: { name: string; ref?: string }; output?: unknown }[];
}
