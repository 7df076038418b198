/** A run as the page sees it (`GET /api/runs/{runId}`, the `run` live event, every run route's answer). */
import { z } from 'zod';
import { PauseInfoSchema } from './pause';
import { ProviderChoiceSchema } from './provider';
import { ReplayInfoSchema } from './replay';
import { ResumeIssueSchema } from './resume-answers';
import { RunModeSchema } from './run-mode';
import { RunRunnerInfoSchema } from './runner-status';
import { ListedToolSchema } from './tool-info';
import { TraceSourceSchema } from './trace-source';

/** How a generate call failed. */
export const GenerateFailureSchema = z.object({
  message: z.string(),
  /** genkit's status (NOT_FOUND, ABORTED, INVALID_ARGUMENT, …) when the error carried one. */
  status: z.string().optional(),
  name: z.string().optional(),
});
export type GenerateFailure = z.infer<typeof GenerateFailureSchema>;

/**
 * `interrupted` is a pause, waiting for an answer — never a failure. `stopped`: the user
 * stopped it (its `failure` says where and how), not a failure of the loop.
 */
export const RunStatusSchema = z.enum(['running', 'interrupted', 'finished', 'failed', 'stopped']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/**
 * A run: one scenario's first generate and the resumes that followed it, or a resume of a
 * recorded interrupt, or a replay (fork) of a recording.
 */
export const RunSessionSchema = z.object({
  runId: z.string(),
  /** What the page calls the run: the scenario's name, "resume of <model>", "replay of <file>", "fork of …". */
  label: z.string(),
  /** The scenario it runs (its scripted model and answers); absent for a resume of a recording or a replay. */
  scenario: z.string().optional(),
  status: RunStatusSchema,
  /** Trace ids in causal order (each generate call is its own trace). */
  traceIds: z.array(z.string()),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  finishReason: z.string().optional(),
  text: z.string().optional(),
  failure: GenerateFailureSchema.optional(),
  /** The interrupted tool requests awaiting an answer. */
  interrupts: z.array(z.unknown()),
  /** How many resumes ran. */
  resumes: z.number(),
  /** Run, step or breakpoints (changeable while the run goes on). */
  mode: RunModeSchema,
  /** Where the run is paused now (parallel tool calls pause together). */
  pauses: z.array(PauseInfoSchema),
  /** Grows with every change: a page keeps the newest state whichever way it arrived. */
  version: z.number(),
  /** Present on a replay (or fork) of a recording. */
  replay: ReplayInfoSchema.optional(),
  /** Present on a resume of a recorded interrupt: where the interrupted generate was recorded. */
  resumeOf: TraceSourceSchema.optional(),
  /** Runs (resumes started from the workbench) that answered this run's interrupt. */
  answeredBy: z.array(z.string()).optional(),
  /** The runner process of its latest generate (or why it waits for one; whether it had to share). */
  runner: RunRunnerInfoSchema.optional(),
  /** The real model a scenario run plays on (absent: the scenario's scripted model); its resumes use it too. */
  provider: ProviderChoiceSchema.optional(),
  /**
   * A generate run in an attached app (`POST /api/runs {runtimeId, action: '/util/generate', mode}`),
   * or a call an AI SDK app made itself (`loopscope/ai-sdk`, lib/contract/attach-ai-sdk.ts):
   * its runtime, its model, and the app's tools the generate offered, with their schemas and
   * examples from the app's action list — the step panel edits pauses with these, not with the
   * built-in runner's tools (the app's getWeather is not tools/'s).
   */
  app: z
    .object({
      runtimeId: z.string(),
      runtimeName: z.string(),
      /** The runtime whose loop it is, when not genkit's (`ai-sdk`: a call of an app using `loopscope/ai-sdk`). */
      runtime: z.string().optional(),
      model: z.string().optional(),
      tools: z.array(ListedToolSchema),
    })
    .optional(),
});
export type RunSession = z.infer<typeof RunSessionSchema>;

/** What every route that starts or changes a run answers: `{run}`. */
export const RunResponseSchema = z.object({ run: RunSessionSchema });
export type RunResponse = z.infer<typeof RunResponseSchema>;

/** `POST /api/resume`: the new run (a resume of the recording) and the warnings that were confirmed. */
export const ResumeResponseSchema = z.object({
  run: RunSessionSchema,
  warnings: z.array(ResumeIssueSchema),
});
export type ResumeResponse = z.infer<typeof ResumeResponseSchema>;

/** `POST /api/runs`: a scenario to run, and how (through, step by step, to breakpoints). */
export const StartRunRequestSchema = z.object({
  scenario: z.string().min(1, 'name a scenario').max(200),
  mode: RunModeSchema.optional(),
  /** The model to play it on; absent or `scripted`: the scenario's scripted model. */
  provider: ProviderChoiceSchema.optional(),
});
export type StartRunRequest = z.infer<typeof StartRunRequestSchema>;

/** `GET /api/runs`: the runs kept in memory, newest first. */
export const RunListResponseSchema = z.object({ runs: z.array(RunSessionSchema) });
