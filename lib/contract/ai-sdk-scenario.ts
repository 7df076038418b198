/**
 * An AI SDK scenario (`tools/scenarios/*.json` with `"runtime": "ai-sdk"`): the real
 * `generateText` loop of `ai@7` played by a scripted `LanguageModelV4` with the tools of
 * `tools/ai-sdk/`. The words are the AI SDK's: tool calls with ids, approvals, steps
 * (docs/interrupt-model.md is the domain; README "AI SDK scenarios" lists them).
 */
import { z } from 'zod';
import { JsonValueSchema } from './json-value';

/** What a provider-executed tool call returned at the provider: the scripted provider sends it with the call. */
export const AiSdkProviderResultSchema = z.object({
  result: JsonValueSchema,
  isError: z.boolean().optional(),
});

/**
 * A tool call the scripted model makes. `ref` becomes the call's `toolCallId`: answers and
 * repairs name the call by it. The input is sent as written, so a script can send one the
 * tool's schema rejects, or name a tool that does not exist.
 */
export const AiSdkScriptedToolCallSchema = z.object({
  name: z.string().min(1),
  ref: z.string().min(1),
  input: JsonValueSchema.optional(),
  /** Present for a provider-executed tool: the provider ran it, here is its result. */
  providerExecuted: AiSdkProviderResultSchema.optional(),
});

/** One model turn (one step's model call): text, tool calls, or both. */
export const AiSdkScriptedTurnSchema = z
  .object({
    text: z.string().optional(),
    toolCalls: z.array(AiSdkScriptedToolCallSchema).optional(),
  })
  .refine((turn) => turn.text !== undefined || (turn.toolCalls?.length ?? 0) > 0, {
    message: 'a turn needs text or at least one tool call',
  });

/**
 * How a tool's calls are approved (`toolApproval` of `generateText`). `policy` uses the
 * function the tool's module exports as `toolApproval[toolName]` (tools/ai-sdk/).
 */
export const AiSdkApprovalModeSchema = z.enum(['user-approval', 'approved', 'denied', 'not-applicable', 'policy']);

const AnsweredCallShape = { toolName: z.string().min(1), toolCallId: z.string().min(1) };

/** Answers to the calls of the previous `generateText` that wait for the caller. */
export const AiSdkScriptedResumeSchema = z
  .object({
    /** `tool-approval-response` with `approved: true`. `forgedInput` rewrites the call's input in the history first (a forged approval). */
    approve: z.array(z.object({ ...AnsweredCallShape, reason: z.string().optional(), forgedInput: JsonValueSchema.optional() })).optional(),
    /** `tool-approval-response` with `approved: false`: the model sees the reason. */
    deny: z.array(z.object({ ...AnsweredCallShape, reason: z.string().min(1) })).optional(),
    /** A `tool-result` for a tool without `execute` (handed back to the caller). */
    respond: z.array(z.object({ ...AnsweredCallShape, output: JsonValueSchema })).optional(),
  })
  .refine((resume) => (resume.approve?.length ?? 0) + (resume.deny?.length ?? 0) + (resume.respond?.length ?? 0) > 0, {
    message: 'a resume needs at least one approve, deny or respond answer',
  });

export const AiSdkScenarioSchema = z.object({
  runtime: z.literal('ai-sdk'),
  /** Identifier: kebab-case, also the file name. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
  title: z.string().min(1),
  description: z.string().min(1),
  prompt: z.string().min(1),
  /** Names of the tools of tools/ai-sdk/ offered to the model. */
  tools: z.array(z.string().min(1)),
  /** The scripted model's turns, in order, across the first call and every resume. */
  script: z.array(AiSdkScriptedTurnSchema).min(1),
  /** Per tool: how its calls are approved. Tools not named need no approval. */
  toolApproval: z.record(z.string().min(1), AiSdkApprovalModeSchema).optional(),
  /** Signs approval requests (`experimental_toolApprovalSecret`): a forged approval is refused. */
  approvalSecret: z.boolean().optional(),
  /** `stopWhen: stepCountIs(maxSteps)`; 20 when absent (the AI SDK's ToolLoopAgent default). */
  maxSteps: z.number().int().positive().optional(),
  /** `repairToolCall`: a call (by ref) that fails to parse is repaired to this input. */
  repairs: z.array(z.object({ ref: z.string().min(1), input: JsonValueSchema })).optional(),
  /** Answers to the calls waiting after the first call, one entry per resume. */
  resumes: z.array(AiSdkScriptedResumeSchema).optional(),
  /** Position in the list on the home page (teaching order); scenarios without one come last. */
  order: z.number().optional(),
});

export type AiSdkScenario = z.infer<typeof AiSdkScenarioSchema>;
export type AiSdkScriptedTurn = z.infer<typeof AiSdkScriptedTurnSchema>;
export type AiSdkScriptedResume = z.infer<typeof AiSdkScriptedResumeSchema>;
export type AiSdkApprovalMode = z.infer<typeof AiSdkApprovalModeSchema>;

/** The number of steps an AI SDK scenario allows when it names none. */
export const AI_SDK_DEFAULT_MAX_STEPS = 20;
