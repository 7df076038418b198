/**
 * What answering a paused call means, as the seam speaks it: the context rebuilt from the
 * recorded spans (history, tools offered, the requests and where each stands), hand-written
 * answers, and the checks a dialect's resume rules make before anything runs. genkit answers
 * by respond / restart; other runtimes (AI SDK approvals) add their own kinds of answer.
 */
import type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ResumeIssue, ResumePayload, ValueAnswer } from '../contract/resume-answers';
import type { AnswerKind } from '../contract/resume-context';
import type { Span } from '../spans/span';
import type { GenerateCall } from './loop-model';
import type { SpanIndex } from './span-index';

/** A tool definition as the model saw it (recorded in the call's request), its runtime metadata kept. */
export interface RecordedToolDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  /** The runtime's own metadata of the tool (genkit: e.g. a Go tool's `resumeSchema`), as recorded. */
  metadata?: Record<string, unknown>;
}

/** One request of the last model message and where it stands. */
export interface PendingRequest {
  name: string;
  ref?: string;
  input?: unknown;
  /** `interrupted`: needs an answer; `pending`: finished, its output parked; `done`: neither. */
  state: 'interrupted' | 'pending' | 'done';
  interruptMetadata?: unknown;
  pendingOutput?: unknown;
  /** What it waits for, when the trace tells: an approval, a tool result (AI SDK, ADK's long-running call), a resume value (LangGraph). */
  waitingFor?: 'approval' | 'result' | 'value';
  /** How `waitingFor` was known, in words. */
  waitingEvidence?: string;
  /** AI SDK: the recorded approval request (legacy spans record its id and signature; GenAI messages record neither). */
  approval?: { approvalId?: string; signature?: string };
  /** Held by a hook that wraps the tool (genkit Go's ToolApproval), not by the tool: the hook, how that is known, and the restart resume data that releases it. */
  heldBy?: { by: string; evidence: string; release: Record<string, unknown> };
  /** The runtime's own word for the pause (`approval required`, `interrupt`, `long-running`). */
  pausedAs?: string;
  /** The runtime's id of the pause when it is not the tool call id (LangGraph's interrupt id): the answer is keyed by it. */
  pauseId?: string;
  /** The JSON schema a resume value must satisfy, when the runtime recorded one (LangGraph's `response_schema`). */
  answerSchema?: unknown;
}

/** Everything needed to resume one interrupted call, rebuilt from its spans. */
export interface ResumeContext {
  /** The dialect whose rules apply (`genkit-js`, `ai-sdk`). */
  dialect: string;
  /** The call's name in the app, when it recorded one (the AI SDK: `telemetry.functionId`, the agent name). */
  callName?: string;
  traceId: string;
  spanId: string;
  /** The model the call used (from its recorded input), to resume with the same one. */
  model?: string;
  /** Who served that model, when the call recorded it (the GenAI conventions' `gen_ai.provider.name`, e.g. `openai`). */
  modelProvider?: string;
  /** The exact history to send: the last model request's messages plus the interrupted model message. Copies. */
  messages: unknown[];
  tools: RecordedToolDefinition[];
  requests: PendingRequest[];
  /** The middleware the call used, as recorded (genkit Go's `use`: name and config): the resume uses it again. */
  use?: { name: string; config?: unknown }[];
  /** The framework's conversation the answer goes to (ADK's session id, LangGraph's thread id), when recorded. */
  conversationId?: string;
}

// The answers, issues and payload travel over the wire: their one definition is the contract's.
export type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ResumeIssue, ValueAnswer } from '../contract/resume-answers';

export interface ResumeValidation {
  errors: ResumeIssue[];
  warnings: ResumeIssue[];
  /** What the rules cannot check with what they know (genkit Go: restart data for a resume type the trace does not record); none when absent. */
  unchecked?: ResumeIssue[];
  /** The exact payload the runtime would get (genkit: `ai.generate({ messages, resume })`; AI SDK: `generateText({ messages })`). */
  payload: ResumePayload;
}

export interface ResumeCheck {
  context: ResumeContext;
  respond?: RespondAnswer[];
  restart?: RestartAnswer[];
  /** AI SDK approval answers. */
  approve?: ApproveAnswer[];
  deny?: DenyAnswer[];
  /** Resume values (LangGraph, Google ADK). */
  values?: ValueAnswer[];
  /**
   * Locally registered tools: `restartable: false` marks respond-only tools (genkit's
   * defineInterrupt); `handedBack: true` an AI SDK tool without `execute`, whose output schema
   * (when it has one) a respond is checked against.
   */
  localTools?: ReadonlyMap<string, LocalToolFacts>;
  /** The run signs its approval requests (`experimental_toolApprovalSecret`): the runner signs what the trace did not record. */
  signsApprovals?: boolean;
}

/** What this machine's tools say about a tool of the trace. */
export interface LocalToolFacts {
  restartable?: boolean;
  handedBack?: boolean;
  outputSchema?: unknown;
  /** genkit Go: a typed interruptible tool's resume type (the Go type a restart's data is converted to) and its JSON schema. */
  resumeType?: string;
  resumeSchema?: unknown;
}

/** A dialect's resume rules. */
export interface ResumeRules {
  /** The kinds of answer its runtime takes, in words, the first the default (genkit: respond, restart; the AI SDK: approve, deny, respond). */
  answerKinds: AnswerKind[];
  /** The kind a request's answer starts as. */
  defaultKind?(request: PendingRequest, waitingFor?: 'approval' | 'result' | 'value'): AnswerKind['kind'];
  /** A checked payload as the app's own call, for people to paste. */
  snippet(context: ResumeContext, payload: ResumePayload): string;
  /** The language `snippet` writes (TypeScript when absent). */
  snippetLanguage?: string;
  /**
   * Set when Loopscope cannot run the answer itself (it does not run Google ADK or LangGraph
   * apps): why, in a sentence. The answer is checked and given as the app's own code to paste.
   */
  elsewhere?: { why: string };
  /** A resume value to start a request's draft from (LangGraph: built from the interrupt's response_schema). */
  valueExample?(options: { request: PendingRequest; exampleOf: (schema: unknown) => unknown }): unknown;
  /** The context of one interrupted call from its root span (its recorded input and output; the index holds its model and tool spans). */
  contextOf(root: Span, index: SpanIndex): ResumeContext;
  /**
   * The same from the call as the graph read and linked it, when the caller built the graph —
   * preferred when present: a pause only an answer shows (Google ADK's `request_confirmation`)
   * is known only then.
   */
  contextOfCall?(options: { root: Span; index: SpanIndex; call: GenerateCall }): ResumeContext;
  /** Checks answers before anything runs and builds the payload. */
  validate(check: ResumeCheck): ResumeValidation;
  /** What a paused request waits for, when the runtime has kinds of pause (the AI SDK: an approval or a result), and how that is known. */
  waitingFor?(request: PendingRequest, localTools: ResumeCheck['localTools']): { waitingFor?: 'approval' | 'result' | 'value'; evidence?: string };
  /** The resume data a restart's draft starts from (genkit Go: what releases a hold, a value of a typed tool's resume type); `exampleOf` builds a value from a JSON schema. */
  resumedExample?(options: { request: PendingRequest; localTools: ResumeCheck['localTools']; exampleOf: (schema: unknown) => unknown }): unknown;
  /** How the tool receives a restart's data, in words (genkit Go: converted to a typed tool's resume type). */
  resumedAs?(request: PendingRequest, localTools: ResumeCheck['localTools']): string | undefined;
}
