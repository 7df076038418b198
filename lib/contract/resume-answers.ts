/**
 * Answers to paused tool calls and what the resume routes say back. genkit answers an
 * interrupt by `resume: {respond, restart}`; the AI SDK answers an approval request by a
 * `tool-approval-response` (approve / deny) and a handed-back tool by a `tool-result`
 * (respond). One shape for the workbench, the runs' scripted answers, the CLI and the runner
 * command; a dialect's resume rules say which kinds its runtime takes.
 */
import { z } from 'zod';
import { SpanIdSchema } from './ids';
import { TraceSourceSchema } from './trace-source';

/** Respond: a hand-written output for an interrupted request; the tool does not run again. */
export const RespondAnswerSchema = z.object({ name: z.string().min(1, 'name the tool'), ref: z.string().optional(), output: z.unknown() });
export type RespondAnswer = z.infer<typeof RespondAnswerSchema>;

/** Restart: the tool runs again with `ctx.resumed` set (and, optionally, a replaced input). */
export const RestartAnswerSchema = z.object({
  name: z.string().min(1, 'name the tool'),
  ref: z.string().optional(),
  resumed: z.unknown().optional(),
  replaceInput: z.unknown().optional(),
});
export type RestartAnswer = z.infer<typeof RestartAnswerSchema>;

/** AI SDK: approve a call that asked for approval (`tool-approval-response`, `approved: true`); the tool runs. */
export const ApproveAnswerSchema = z.object({ name: z.string().min(1, 'name the tool'), ref: z.string().optional(), reason: z.string().optional() });
export type ApproveAnswer = z.infer<typeof ApproveAnswerSchema>;

/** AI SDK: deny a call that asked for approval (`approved: false`); the model sees the reason. */
export const DenyAnswerSchema = z.object({ name: z.string().min(1, 'name the tool'), ref: z.string().optional(), reason: z.string().optional() });
export type DenyAnswer = z.infer<typeof DenyAnswerSchema>;

/**
 * A resume value: the value the runtime hands the paused call as it is (LangGraph's
 * `Command(resume=…)` value for the call's interrupt; Google ADK's confirmation response, a
 * `ToolConfirmation`, or a long-running call's result). Its shape is the app's or the runtime's.
 */
export const ValueAnswerSchema = z.object({ name: z.string().min(1, 'name the tool'), ref: z.string().optional(), value: z.unknown() });
export type ValueAnswer = z.infer<typeof ValueAnswerSchema>;

const MAX_ANSWERS = 100;

/** What the caller asks to be done with the interrupts of the last model message. */
export const ResumeAnswersSchema = z.object({
  respond: z.array(RespondAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).optional(),
  restart: z.array(RestartAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).optional(),
});
export type ResumeAnswers = z.infer<typeof ResumeAnswersSchema>;

/** `POST /api/runs/{runId}/resume`: without `resume`, the scenario's scripted answer is used. */
export const RunResumeRequestSchema = z.object({ resume: ResumeAnswersSchema.optional() });
export type RunResumeRequest = z.infer<typeof RunResumeRequestSchema>;

/** `POST /api/resume` and `POST /api/resume/check`: answers to an interrupted generate of any recorded trace. */
export const ResumeFromTraceSchema = z.object({
  /** Where the interrupted generate was recorded: captured traces, or a saved file. */
  source: TraceSourceSchema,
  /** The interrupted generate's span; the last interrupted one when absent. */
  generateSpanId: SpanIdSchema.optional(),
  respond: z.array(RespondAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).default([]),
  restart: z.array(RestartAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).default([]),
  /** AI SDK traces: approval requests approved / denied (`respond` answers their handed-back tools). */
  approve: z.array(ApproveAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).optional(),
  deny: z.array(DenyAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).optional(),
  /** Frameworks answered by a value (LangGraph's resume value, ADK's confirmation): the values, by tool call. */
  values: z.array(ValueAnswerSchema).max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`).optional(),
  /** Warnings (genkit 1.42 pitfalls) were shown and accepted. */
  confirmWarnings: z.boolean().optional(),
});
export type ResumeFromTrace = z.infer<typeof ResumeFromTraceSchema>;

/**
 * One broken rule (error, with the runtime's own code), known pitfall (`WARNING`), or part of the
 * answer that cannot be checked here (`UNCHECKED`: the runtime may take it or refuse it, and the
 * message says why it cannot be told).
 */
export const ResumeIssueSchema = z.object({
  code: z.enum(['FAILED_PRECONDITION', 'INVALID_ARGUMENT', 'NOT_FOUND', 'INTERNAL', 'WARNING', 'UNCHECKED']),
  /** `name#ref` the issue is about, when it is about one request. */
  request: z.string().optional(),
  message: z.string(),
});
export type ResumeIssue = z.infer<typeof ResumeIssueSchema>;

/**
 * The exact payload the runtime would get: genkit `ai.generate({ messages, resume })`; the AI
 * SDK `generateText({ messages })` — the history with the answers as its last `tool` message.
 */
export const ResumePayloadSchema = z.object({
  messages: z.array(z.unknown()),
  resume: z.object({ respond: z.array(z.unknown()), restart: z.array(z.unknown()) }).optional(),
  /**
   * A framework's own answer object, where the answer is not a model history (LangGraph: the
   * `Command(resume=…)` map by interrupt id; Google ADK: the function responses of the new message).
   */
  answer: z.unknown().optional(),
  /** What the payload leaves to the run, in words (the AI SDK: approvals signed by the runner with the app's secret). */
  notes: z.array(z.string()).optional(),
});
export type ResumePayload = z.infer<typeof ResumePayloadSchema>;

/**
 * What the check says the runtime would do with the answer: take it, refuse it, or — when part of
 * it depends on what the trace does not record (genkit Go: a typed tool's resume type) —
 * unchecked: it may go either way.
 */
export const ResumeVerdictSchema = z.enum(['accepted', 'refused', 'unchecked']);
export type ResumeVerdict = z.infer<typeof ResumeVerdictSchema>;

/** The verdict of a check: refused when a rule is broken, else unchecked when something could not be checked, else accepted. */
export function resumeVerdictOf(issues: { errors: readonly ResumeIssue[]; unchecked?: readonly ResumeIssue[] }): ResumeVerdict {
  if (issues.errors.length > 0) return 'refused';
  return (issues.unchecked ?? []).length > 0 ? 'unchecked' : 'accepted';
}

/** `POST /api/resume/check` → what genkit would refuse, what it would get wrong, what cannot be checked, and the payload (nothing runs). */
export const ResumeCheckResponseSchema = z.object({
  verdict: ResumeVerdictSchema,
  errors: z.array(ResumeIssueSchema),
  warnings: z.array(ResumeIssueSchema),
  /** The parts of the answer the runtime may take or refuse, each saying why it cannot be told here. */
  unchecked: z.array(ResumeIssueSchema),
  payload: ResumePayloadSchema,
  /** The payload as the app's own code (`ai.generate({…})`, `generateText({…})`), for the copy button. */
  snippet: z.string(),
});
export type ResumeCheckResponse = z.infer<typeof ResumeCheckResponseSchema>;
