/**
 * What the resume workbench shows of an interrupted generate (`POST /api/resume/context`),
 * read from its spans on the server: the requests of its last model message and where each
 * stands, the tools it offered, and an example answer per request.
 */
import { z } from 'zod';
import { SpanIdSchema } from './ids';
import { TraceSourceSchema } from './trace-source';

export const ResumeContextRequestSchema = z.object({
  source: TraceSourceSchema,
  /** The interrupted generate's span; the last interrupted one when absent. */
  generateSpanId: SpanIdSchema.optional(),
});
export type ResumeContextRequest = z.infer<typeof ResumeContextRequestSchema>;

/** One kind of answer a runtime takes, as the workbench offers it: its words and the fields it needs. */
export const AnswerKindSchema = z.object({
  kind: z.enum(['respond', 'restart', 'approve', 'deny', 'value']),
  /** For people: `Respond (the tool does not run again)`. */
  label: z.string(),
  /** What the user writes: the respond output, restart's resumed metadata / replacement input, an approval's reason. */
  fields: z.array(z.enum(['output', 'resumed', 'replaceInput', 'reason', 'value'])),
});
export type AnswerKind = z.infer<typeof AnswerKindSchema>;

export const ResumeContextViewSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  /** The runtime whose rules apply (`genkit-js`, `ai-sdk`): it decides the kinds of answer offered. */
  dialect: z.string(),
  /** Its name for people (`Vercel AI SDK`). */
  runtimeTitle: z.string(),
  /** The kinds of answer the runtime takes, in the order offered. */
  answerKinds: z.array(AnswerKindSchema),
  /** The language of the checked answer as the app's own call (the check response's `snippet`): `TypeScript`, `Go`, `Python`. */
  snippetLanguage: z.string(),
  /** Why Loopscope cannot run the answer itself, when it cannot (it does not run Google ADK or LangGraph apps): the snippet is the answer to paste. */
  runsElsewhere: z.string().optional(),
  /**
   * The app that made the call waits for this answer (an AI SDK app's `answerInLoopscope`): it is
   * sent there, and the app's next call goes on as this run, instead of Loopscope running it.
   */
  sendsToApp: z.object({ app: z.string(), runId: z.string() }).optional(),
  /** The model the generate called, to resume with the same one. */
  model: z.string().optional(),
  /** The tools the recorded request offered. */
  tools: z.array(z.object({ name: z.string(), description: z.string().optional(), inputSchema: z.unknown().optional(), outputSchema: z.unknown().optional() })),
  requests: z.array(
    z.object({
      name: z.string(),
      ref: z.string().optional(),
      input: z.unknown().optional(),
      /** `interrupted`: needs an answer; `pending`: finished, its output parked; `done`: neither. */
      state: z.enum(['interrupted', 'pending', 'done']),
      interruptMetadata: z.unknown().optional(),
      pendingOutput: z.unknown().optional(),
      /**
       * AI SDK: what the paused call waits for — an approval (`approve` / `deny`), the result of
       * a tool without `execute` (`respond`); absent when neither the trace nor the local tools tell.
       */
      waitingFor: z.enum(['approval', 'result', 'value']).optional(),
      /** How that was known, in words. */
      waitingEvidence: z.string().optional(),
      /** The kind of answer a draft starts with. */
      defaultKind: AnswerKindSchema.shape.kind.optional(),
      /** A respond output to start from, built from the tool's output schema. */
      outputExample: z.unknown().optional(),
      /** A restart's resume data to start from (genkit Go: what releases a ToolApproval hold, a value of a typed tool's resume type). */
      resumedExample: z.unknown().optional(),
      /** How the tool receives a restart's data, in words (genkit Go: its typed tool's Go resume type; what a hook reads). */
      resumedAs: z.string().optional(),
      /** The runtime's own word for the pause (`approval required`, `interrupt`, `long-running`). */
      pausedAs: z.string().optional(),
      /** A resume value to start from (LangGraph: from the interrupt's response_schema; ADK: a confirmation). */
      valueExample: z.unknown().optional(),
    }),
  ),
});
export type ResumeContextView = z.infer<typeof ResumeContextViewSchema>;

export const ResumeContextResponseSchema = z.object({ context: ResumeContextViewSchema });
export type ResumeContextResponse = z.infer<typeof ResumeContextResponseSchema>;
