/**
 * A scenario (`tools/scenarios/*.json`): a prompt, the tools it offers and the script of
 * the built-in scripted model. The file format is also what `GET /api/scenarios` lists.
 * `runtime` says which loop plays it: genkit JS (absent, or `"genkit-js"`) or the Vercel
 * AI SDK (`"ai-sdk"`, its shape in ./ai-sdk-scenario.ts).
 */
import { z } from 'zod';
import { AiSdkScenarioSchema } from './ai-sdk-scenario';
import { JsonValueSchema } from './json-value';

/** A tool request the scripted model makes. `ref` is required: without it genkit cannot tell two calls of one tool apart. */
export const ScriptedToolRequestSchema = z.object({
  name: z.string().min(1),
  ref: z.string().min(1),
  input: JsonValueSchema.optional(),
});

/** One model turn of a script: text, tool requests, or both. */
export const ScriptedTurnSchema = z
  .object({
    text: z.string().optional(),
    toolRequests: z.array(ScriptedToolRequestSchema).optional(),
  })
  .refine((turn) => turn.text !== undefined || (turn.toolRequests?.length ?? 0) > 0, {
    message: 'a turn needs text or at least one tool request',
  });

/** The scripted answer a scenario gives to its own interrupts, so a run can be resumed in one click. */
export const ScriptedResumeSchema = z
  .object({
    respond: z.array(z.object({ name: z.string().min(1), ref: z.string().min(1), output: JsonValueSchema })).optional(),
    restart: z
      .array(
        z.object({
          name: z.string().min(1),
          ref: z.string().min(1),
          resumed: JsonValueSchema.optional(),
          replaceInput: JsonValueSchema.optional(),
        }),
      )
      .optional(),
  })
  .refine((resume) => (resume.respond?.length ?? 0) + (resume.restart?.length ?? 0) > 0, {
    message: 'a resume needs at least one respond or restart part',
  });

/** A genkit JS scenario: every file without a `runtime`. */
export const GenkitScenarioSchema = z.object({
  runtime: z.literal('genkit-js').optional(),
  /** Identifier: kebab-case, also the file name. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
  title: z.string().min(1),
  description: z.string().min(1),
  prompt: z.string().min(1),
  /** Names of the tools offered to the model (they need not all exist: see the unknown-tool scenario). */
  tools: z.array(z.string().min(1)),
  /** The scripted model's turns, in order, across the first generate and every resume. */
  script: z.array(ScriptedTurnSchema).min(1),
  /** Answers to the interrupts of the first generate, one entry per resume. */
  resumes: z.array(ScriptedResumeSchema).optional(),
  maxTurns: z.number().int().positive().optional(),
  /** Position in the list on the home page (teaching order); scenarios without one come last. */
  order: z.number().optional(),
});

/**
 * A genkit Go scenario (`tools/go/scenarios/*.json`): the genkit format, played by genkit Go in
 * the Go runner (go/runner) with the tools of tools/go/; its tools are Go's, its answers genkit
 * Go's response and restart parts.
 */
export const GenkitGoScenarioSchema = GenkitScenarioSchema.extend({
  runtime: z.literal('genkit-go'),
  /** The genkit JS scenario this one plays on genkit Go (same prompt, script and answers): compared side by side. */
  mirrors: z.string().optional(),
  /** genkit Go's ToolApproval middleware on the generate (plugins/middleware): every tool not allowed here is held until approved. */
  toolApproval: z.object({ allowedTools: z.array(z.string()) }).strict().optional(),
});
export type GenkitGoScenario = z.infer<typeof GenkitGoScenarioSchema>;

/**
 * Any scenario, told apart by `runtime`: a file's problems are reported against the runtime it
 * names (a genkit file is checked exactly as before the AI SDK came).
 */
export const ScenarioSchema = z.discriminatedUnion('runtime', [GenkitScenarioSchema, AiSdkScenarioSchema, GenkitGoScenarioSchema]);

export type Scenario = z.infer<typeof ScenarioSchema>;
export type GenkitScenario = z.infer<typeof GenkitScenarioSchema>;
export type ScenarioRuntime = NonNullable<Scenario['runtime']>;

/** The runtime that plays a scenario (`genkit-js` when the file names none). */
export function scenarioRuntime(scenario: Pick<Scenario, 'runtime'>): ScenarioRuntime {
  return scenario.runtime ?? 'genkit-js';
}

export type ScriptedTurn = z.infer<typeof ScriptedTurnSchema>;
export type ScriptedResume = z.infer<typeof ScriptedResumeSchema>;

/** The name of the scripted model that plays a scenario, in every runtime (`scripted/<scenario>`): what its traces record and a resume names. */
export function scriptedModelName(scenarioName: string): string {
  return `scripted/${scenarioName}`;
}

/** The scenario a scripted model name belongs to, or undefined for any other model. */
export function scenarioOfScriptedModel(modelName: string): string | undefined {
  return modelName.startsWith('scripted/') ? modelName.slice('scripted/'.length) : undefined;
}
