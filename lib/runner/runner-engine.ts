/**
 * The seam between the node runner process (runtime-free: lib/runner) and a runtime that runs in
 * it (genkit JS, the Vercel AI SDK): what the runner asks a runtime's engine to do. An engine
 * lives in its runtime's folder (lib/runtimes/<id>/run/); the runner's entry
 * (lib/runtimes/node-runner-main.ts) hands it the engines of the registered runtimes. The runner
 * itself knows no runtime: it loads every engine, tells the server what each loaded, gives each
 * generate command to the engine that plays it, and runs stepping, Stop and span reporting the
 * same way for all of them.
 */
import type { LoadProblem } from '../contract/runner-status';
import type { ReplayReport } from '../replay/replay-report';
import type { Span } from '../spans/span';
import type { SpanRef } from './answer-link';
import type { RunStepper } from './run-stepper';
import type { GenerateCommand, GenerateFailure, GenerateOutcome, ReplayCommand, ToolInfo } from './runner-protocol';
import type { Scenario } from './scenario';
import type { SpanStarts } from './span-starts';
import type { PauseDecision, PauseInfo } from './step-protocol';

/** What every engine is loaded with, once per runner process. */
export interface EngineLoadOptions {
  /** The tools folder (LOOPSCOPE_TOOLS_DIR): each engine reads its own part of it. */
  toolsDir: string;
  /** Every scenario file of the scenarios folder; an engine takes the ones of its runtime. */
  scenarios: readonly Scenario[];
  environment: Readonly<Record<string, string | undefined>>;
}

/** What one generate command gave back. */
export interface EngineGenerateResult {
  outcome?: GenerateOutcome;
  failure?: GenerateFailure;
  rootSpan?: SpanRef;
}

/** A runtime's engine once loaded in a runner: its catalog, and how it runs, checks and replays. */
export interface LoadedEngine {
  /** The runtime's name in messages to people: `genkit`, `the AI SDK`. */
  readonly words: string;
  /** The tools this runtime loaded (their own namespace: two runtimes may each have a `getWeather`). */
  readonly tools: readonly ToolInfo[];
  /** Models a recorded call of this runtime may be resumed on here. */
  readonly models: readonly string[];
  /** Tool modules or scenario files of this runtime that could not be used (the rest still load). */
  readonly problems: readonly LoadProblem[];
  /** True when a generate command is this runtime's to play. */
  plays(command: GenerateCommand): boolean;
  generate(options: { command: GenerateCommand; toolTimeoutMs: number; stepper?: RunStepper; abortSignal: AbortSignal }): Promise<EngineGenerateResult>;
  /** The rules a step decision breaks, by this runtime's own schemas for the command's tools (empty when none). */
  checkDecision(options: { command: GenerateCommand; pause: PauseInfo; decision: PauseDecision }): Promise<string[]>;
  /** Replays a recording this runtime made (read by `readRecording`), models and tools from it. */
  replay?(options: { recording: unknown; command: ReplayCommand; toolsDir: string }): Promise<ReplayReport>;
  /**
   * Warms the runtime up before the runner says ready (its spans are not sent: they belong to no
   * run). A first run on a cold runtime pays for compiling validators and the loop's code.
   */
  warmUp?(): Promise<void>;
}

/**
 * A runtime's engine before it is loaded. The runner's telemetry starts first (a runtime binds to
 * the tracer provider it finds when it is imported), so what the span reporter needs of the
 * runtime is here, not on the loaded engine, and importing this object must not import the
 * runtime itself.
 */
export interface RunnerEngine {
  /** The runtime's id (`genkit-js`), as the registry and its dialect name it. */
  readonly runtime: string;
  /** What the runner reports of this runtime's spans when they start, and which of them may run tools/ code. */
  readonly spanStarts: SpanStarts;
  /**
   * Loads the runtime in this runner: its imports happen here, after the runner's telemetry
   * started. A runtime that would start an OpenTelemetry SDK of its own on first use is told not
   * to here, before it is imported (genkit's `disableGenkitOTelInitialization`).
   */
  load(options: EngineLoadOptions): Promise<LoadedEngine>;
}

/** A recording of any runtime, as its runner reads it to replay: which runtime made it, and its recording. */
export interface ReadRecording {
  runtime: string;
  recording: unknown;
}

/** How the runner reads a recording it was pointed at (the registry's readers: lib/runtimes/read-recording.ts). */
export type RecordingReader = (spans: readonly Span[]) => Promise<ReadRecording>;
