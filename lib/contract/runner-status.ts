/** The runner pool as the page sees it (`GET /api/runner`, the `runner` live event, `GET /api/scenarios`). */
import { z } from 'zod';
import { ScenarioSchema } from './scenario';
import { ListedToolSchema, ToolInfoSchema } from './tool-info';

/** A problem met while loading `tools/` or a scenario file; the rest still loads. */
export const LoadProblemSchema = z.object({ file: z.string(), message: z.string() });
export type LoadProblem = z.infer<typeof LoadProblemSchema>;

/** One runner process of the pool. */
export const RunnerProcessStatusSchema = z.object({
  pid: z.number().optional(),
  state: z.enum(['starting', 'idle', 'busy', 'retiring']),
  /** Runs whose requests it is executing. */
  runIds: z.array(z.string()),
});
export type RunnerProcessStatus = z.infer<typeof RunnerProcessStatusSchema>;

export const RunnerStateSchema = z.enum(['starting', 'ready', 'restarting', 'stopped']);

export const RunnerStatusSchema = z.object({
  /** `ready` while at least one runner takes runs. */
  state: RunnerStateSchema,
  /** The runner the next run takes (the warm spare), else any live one. */
  pid: z.number().optional(),
  /** The tools each runtime of the runners loaded, by runtime id (each its own namespace: an AI SDK `getWeather` is not genkit's). */
  toolsByRuntime: z.record(z.string(), z.array(ToolInfoSchema)),
  /** Models defined in the runner: a resume of a recording can only call one of these. */
  models: z.array(z.string()),
  scenarios: z.array(ScenarioSchema),
  problems: z.array(LoadProblemSchema),
  /** Why runners were last replaced (tools changed, crashed, hung, restarted by the user). */
  lastRestartReason: z.string().optional(),
  restarts: z.number(),
  /** The pool, one entry per runner process. */
  runners: z.array(RunnerProcessStatusSchema).optional(),
  /** At most this many runners run at once (LOOPSCOPE_MAX_RUNNERS). */
  capacity: z.number().optional(),
  /** Runs waiting for a free runner. */
  waiting: z.number().optional(),
  /** Which catalog (tools, models, scenarios, problems) the runners loaded: grows each time it changes. */
  catalogVersion: z.number().optional(),
});
export type RunnerStatus = z.infer<typeof RunnerStatusSchema>;

/** The catalog's fields of a status: what `GET /api/runner` and `GET /api/scenarios` give, and the `runner` live event leaves out. */
const CATALOG_FIELDS = { toolsByRuntime: true, models: true, scenarios: true, problems: true } as const;

/**
 * The pool as the `runner` live event carries it: the status without its catalog. The pool
 * changes with every run that starts and ends (busy, idle, its run ids), the catalog only when
 * runners load tools/ again; with the examples' tools/ the catalog is ≈26 KB, which every open
 * home page got three times a run. A page reads the catalog once and again when
 * `catalogVersion` changes.
 */
export const RunnerPoolStatusSchema = RunnerStatusSchema.omit(CATALOG_FIELDS);
export type RunnerPoolStatus = z.infer<typeof RunnerPoolStatusSchema>;

/** The status without its catalog (RunnerPoolStatusSchema). */
export function runnerPoolStatus(status: RunnerStatus): RunnerPoolStatus {
  // The fields named once, in CATALOG_FIELDS: the schema and this function leave out the same ones.
  const pool: Record<string, unknown> = { ...status };
  for (const field of Object.keys(CATALOG_FIELDS)) delete pool[field];
  return pool as RunnerPoolStatus;
}

/** `GET /api/runner`. */
export const RunnerResponseSchema = z.object({ runner: RunnerStatusSchema });
export type RunnerResponse = z.infer<typeof RunnerResponseSchema>;

/** Which runner a run was given (or why it waits): shown with the run. */
export const RunRunnerInfoSchema = z.object({
  pid: z.number().optional(),
  /** Set while the run waits for a runner. */
  waiting: z.string().optional(),
  /** Isolation degraded: the paused runs this run shares its runner with (all runners were busy). */
  sharedWith: z.array(z.string()).optional(),
});
export type RunRunnerInfo = z.infer<typeof RunRunnerInfoSchema>;

/** `GET /api/scenarios`: scenarios and tools as the runner loaded them, with any load problems. */
export const ScenarioListResponseSchema = z.object({
  scenarios: z.array(ScenarioSchema),
  /**
   * The tools of each runtime, by runtime id, with examples from their schemas (an AI SDK tool
   * without `execute` is `handedBack`); a runtime whose runner has not started yet (genkit Go,
   * built on its first run) is absent until it has.
   */
  toolsByRuntime: z.record(z.string(), z.array(ListedToolSchema)),
  problems: z.array(LoadProblemSchema),
  runner: RunnerStateSchema,
  /** The genkit Go runner (go/runner): built on the first Go run; once ready, its tools (a typed tool's Go resume type). */
  goRunner: z.object({
    state: z.enum(['idle', 'building', 'ready', 'failed']),
    problem: z.string().optional(),
    tools: z.array(z.object({ name: z.string(), resumeType: z.string().optional() })),
  }),
  /** Forwarding every received span upstream (LOOPSCOPE_FORWARD_OTLP): how it goes. */
  forwarding: z
    .object({
      url: z.string(),
      queued: z.number(),
      queuedBytes: z.number(),
      sentExports: z.number(),
      sentSpans: z.number(),
      droppedExports: z.number(),
      droppedSpans: z.number(),
      lastError: z.string().optional(),
    })
    .optional(),
});
export type ScenarioListResponse = z.infer<typeof ScenarioListResponseSchema>;
