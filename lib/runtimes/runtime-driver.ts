/**
 * The seam for acting on a runtime, as RuntimeDialect (lib/loop/runtime-dialect.ts) is the seam
 * for reading it: what Loopscope does with a runtime — run its scenarios, step them, answer a
 * pause (rules, payload, and where the answer runs), replay and export a recording. One driver
 * per runtime, in the runtime's folder (`lib/runtimes/<id>/driver.ts`), listed once in
 * lib/runtimes/drivers.ts. A runtime that Loopscope reads but does not run (an agent framework
 * whose app is the developer's) has a driver with only what applies, or none.
 *
 * Node-only (drivers reach runners, files and toolchains): pages learn what a runtime offers
 * from its view (lib/loop/runtime-view.ts), never from its driver.
 */
import type { ReplayReport } from '../replay/replay-report';
import type { RunnerEngine } from '../runner/runner-engine';
import type { GenerateCommand, ResumeRequest } from '../runner/runner-protocol';
import type { Scenario } from '../runner/scenario';
import type { SpanIndex } from '../loop/span-index';
import type { GenerateResume } from '../loop/loop-model';
import type { AnswerHereOptions, AnswerHereResult } from './answer-here';
import type { ResumeTarget, ResumeTargetOptions } from './resume-target';

/** A recorded tool call or model answer a fork may replace (`traceId:spanId`). */
export interface ForkPoints {
  tools: { key: string; name: string; outcome: 'output' | 'interrupt' | 'error' }[];
  /** Model answers a fork may replace; absent when this runtime cannot fork one (the reason says why). */
  models?: { key: string; ordinal: number; response: Record<string, unknown> }[];
  modelForkRefusal?: string;
}

/** How a runtime's recordings replay and export. */
export interface ReplaySupport {
  /**
   * Where the server replays it: in a node runner (its node engine reads the recording itself), or
   * in the runtime's own host (the genkit Go runner reads no files: the server reads it first).
   */
  readonly runsIn: 'node-runner' | 'runtime-host';
  /**
   * When one set of spans holds calls of several runtimes, the replayable one with the highest
   * rank is replayed (genkit JS: its calls win in a mixed set), the others are left out.
   */
  readonly rank: number;
  /** Whether a tool this runtime ran on its own, outside any call, is something to replay. */
  readonly standaloneTools?: boolean;
  /**
   * Reads this runtime's replayable chain from the spans (its calls in causal order, with what
   * each was answered with): `resumeOf` is the graph's linking, which says which call each
   * resume or answering call continues.
   * @throws LoopscopeError FAILED_PRECONDITION when a call did not record what a replay needs.
   */
  read(options: { index: SpanIndex; resumeOf: (generateId: string) => GenerateResume | undefined }): unknown;
  /** What a fork of this recording may replace. */
  forkPoints(recording: unknown): ForkPoints;
  /** Replays a recording read by `read` in this process, for the command line (`loopscope replay`). */
  replayHere?(options: {
    recording: unknown;
    mode: 'strict' | 'lenient';
    liveTools: boolean;
    toolsDir: string;
    /** Loopscope's own folder (a clone, or the installed package): a runtime host's sources are there (go/runner, tools/go). */
    projectDir: string;
    /** Loopscope's data folder: what a runtime builds for this machine goes there (the Go runner's binary), never into the installed package. */
    dataDir: string;
    warn: (text: string) => void;
    /** An OTLP receiver on loopback for a runtime that exports its spans from another process (the CLI's, lib/server/ingest/loopback-receiver.ts). */
    receiveSpans: () => Promise<{ endpoint: string; token: string; close(): Promise<void> }>;
  }): Promise<ReplayReport>;
}

/** A runtime's recordings as one standalone program to attach to a bug report (`loopscope repro`). */
export interface ReproSupport {
  /** The program's file name for a recording file (`bug.json` → `bug.repro.ts`). */
  fileName(source: string): string;
  /** The program's text. `localTools`: import the tools of this tools folder instead of stubbing them, where the runtime can. */
  write(options: { recording: unknown; source: string; fileName: string; title?: string; localTools?: { toolsDirectory: string; fromDirectory: string; warn: (text: string) => void } }): Promise<string>;
}

/** Answering a paused call of this runtime: the runner side (the rules are its dialect's). */
export interface AnswerSupport {
  /** What the runners have for the answer, what blocks it, and the command that runs it. */
  target(options: ResumeTargetOptions): ResumeTarget;
  /** Checks and runs an answer in this process, for the command line. */
  here?(options: AnswerHereOptions): Promise<AnswerHereResult>;
}

/** The real-model providers a runtime's scenarios can run on: `true`, or why not (in its words). */
export interface RealModelSupport {
  openaiCompatible: true | string;
  gemini: true | string;
}

/** Playing this runtime's scenarios (tools/scenarios/, or the runtime's own folder). */
export interface ScenarioSupport {
  /** Where its scenarios run: a node runner of the pool (its node engine), or the runtime's own host. */
  readonly runsIn: 'node-runner' | 'runtime-host';
  readonly realModels: RealModelSupport;
  /**
   * The answer a scenario's run sends when it is resumed, as the next generate's fields: the answer
   * given (a hand-written one, where the runtime takes one) or the scenario's own scripted answer for
   * this resume, aimed at the calls a real model made when the run is on one.
   * @throws LoopscopeError FAILED_PRECONDITION (no scripted answer left), INVALID_ARGUMENT (an answer of another runtime's kind).
   */
  answerOf(options: { scenario: Scenario; resumes: number; given?: ResumeRequest; onRealModel: boolean; interrupts: readonly unknown[] }): Pick<GenerateCommand, 'resume' | 'aiSdkAnswers'>;
}

export interface RuntimeDriver {
  /** The runtime's id: its dialect's (`genkit-js`). */
  readonly runtime: string;
  /** Its engine in the node runner, when the runtime runs in Node (lib/runner/runner-engine.ts). */
  readonly nodeEngine?: RunnerEngine;
  readonly scenarios?: ScenarioSupport;
  readonly answer?: AnswerSupport;
  readonly replay?: ReplaySupport;
  readonly repro?: ReproSupport;
}
