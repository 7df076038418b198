/**
 * What answering a paused call means, as the seam speaks it: the context rebuilt from the
 * recorded spans (history, tools offered, the requests and where each stands), hand-written
 * answers, and the checks a dialect's resume rules make before anything runs. genkit answers
 * by respond / restart; other runtimes (AI SDK approvals) add their own kinds of answer.
 */
import type { RespondAnswer, RestartAnswer, ResumeIssue, ResumePayload } from '../contract/resume-answers';
import type { Span } from '../trace/span';

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
}

/** Everything needed to resume one interrupted call, rebuilt from its spans. */
export interface ResumeContext {
  /** The dialect whose rules apply (`genkit-js`). */
  dialect: string;
  traceId: string;
  spanId: string;
  /** The model the call used (from its recorded input), to resume with the same one. */
  model?: string;
  /** The exact history to send: the last model request's messages plus the interrupted model message. Copies. */
  messages: unknown[];
  tools: RecordedToolDefinition[];
  requests: PendingRequest[];
}

// The answers, issues and payload travel over the wire: their one definition is the contract's.
export type { RespondAnswer, RestartAnswer, ResumeIssue } from '../contract/resume-answers';

export interface ResumeValidation {
  errors: ResumeIssue[];
  warnings: ResumeIssue[];
  /** The exact payload the runtime would get (genkit: `ai.generate({ messages, resume })`). */
  payload: ResumePayload;
}

export interface ResumeCheck {
  context: ResumeContext;
  respond?: RespondAnswer[];
  restart?: RestartAnswer[];
  /** Locally registered tools: `restartable: false` marks respond-only tools (genkit's defineInterrupt). */
  localTools?: ReadonlyMap<string, { restartable?: boolean }>;
}

/** A dialect's resume rules. */
export interface ResumeRules {
  /** The context of one interrupted call from its root span (its recorded input and output). */
  contextOf(root: Span): ResumeContext;
  /** Checks answers before anything runs and builds the payload. */
  validate(check: ResumeCheck): ResumeValidation;
}
