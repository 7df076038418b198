/**
 * The node runner process (ADR 0002, 0003): a child process of the server that loads the engines
 * of the runtimes that run in Node (lib/runner/runner-engine.ts: genkit JS, the AI SDK) and runs
 * generate, replay and step commands on request, one run each. It knows no runtime: every
 * engine is loaded the same way, each generate command goes to the engine that plays it, and
 * stepping, Stop and span reporting are the same for all. Its entry is
 * lib/runtimes/node-runner-main.ts, which hands it the registered runtimes' engines. Started as
 * `node --import tsx <entry>` with an IPC channel; it exits when the channel closes, so it never
 * outlives the server.
 *
 * Its spans go to the server through its spool file, announced over the same IPC channel
 * (runner-telemetry.ts, runner-span-outbox.ts), and the server stores them.
 *
 * Environment: LOOPSCOPE_TOOLS_DIR, LOOPSCOPE_SCENARIOS_DIR, LOOPSCOPE_TOOL_TIMEOUT_MS,
 * LOOPSCOPE_PAUSE_TIMEOUT_MS, LOOPSCOPE_APPROVAL_SECRET (signs AI SDK approvals), LOOPSCOPE_RUNNER_SPOOL
 * (the spool file its spans travel through, which the server reads, also after the runner died:
 * span-batch-frames.ts),
 * LOOPSCOPE_OPENAI_BASE_URL / LOOPSCOPE_OPENAI_API_KEY and GEMINI_API_KEY (real providers: provider-endpoint.ts).
 */
import path from 'node:path';
import { LoopscopeError } from '../errors';
import type { ReplayReport } from '../replay/replay-report';
import type { LoadedEngine, RecordingReader, RunnerEngine } from './runner-engine';
import { RunnerCommandSchema, type GenerateCommand, type GenerateFailure, type ReplayCommand, type RunnerCommand, type RunnerEvent } from './runner-protocol';
import { RunnerSpanOutbox } from './runner-span-outbox';
import { openSpoolFile, type SpanSpool } from './span-batch-frames';
import { sendCloneable } from './send-cloneable';
import { runContext, startRunnerTelemetry } from './runner-telemetry';
import { RequestStop } from './request-stop';
import { engineSpanStarts } from './span-starts';
import type { RunStepper } from './run-stepper';
import type { PauseInfo } from './step-protocol';

/** What a node runner runs with: the registered runtimes' engines, in the registry's order, and the registry's reader of recordings (lib/runtimes/node-runner-options.ts). */
export interface NodeRunnerOptions {
  engines: readonly RunnerEngine[];
  readRecording: RecordingReader;
}

/**
 * Runs this process as a node runner with the given engines (in the registry's order) and the
 * registry's reader of recordings. Returns at once; the process lives on its IPC channel.
 */
export function startNodeRunner(options: NodeRunnerOptions): void {
  if (!process.send) {
    console.error('The runner is started by the Loopscope server (it needs an IPC channel).');
    process.exit(2);
  }
  const send = (event: RunnerEvent) => {
    if (process.connected) sendCloneable((message: RunnerEvent) => process.send?.(message), event);
  };
  const runner = new NodeRunner({ ...options, channel: { send, exit: (code) => process.exit(code) }, environment: process.env });
  // A tool that calls process.exit: what is still queued goes out on the way down.
  process.on('exit', () => runner.flush());
  process.on('message', (raw) => void runner.receive(raw));
  // The server is gone, and with it the only place our spans go: leave, never linger as an orphan.
  process.on('disconnect', () => process.exit(0));
}

/** A node runner in the calling process: commands go in by `receive`, its events come out to the `send` it was given. */
export interface NodeRunnerHere {
  /** Handles one command (as the IPC channel would deliver it); settles once the command's result was sent. */
  receive(raw: unknown): Promise<void>;
  /** Ends its telemetry (the `shutdown` command would end the process too). */
  shutdown(): Promise<void>;
}

/**
 * The same runner, in this process: what a server's runner child does, for a caller that cannot
 * spawn one with its runtimes (a test that registers a runtime of its own with `withRuntime`:
 * a runner child loads the registry's drivers only). Its telemetry is this process's global
 * OpenTelemetry SDK — one runner per process. Without a spool path in `environment`
 * (LOOPSCOPE_RUNNER_SPOOL) its span batches travel in the events.
 */
export function startNodeRunnerHere(options: NodeRunnerOptions & { send: (event: RunnerEvent) => void; environment?: Readonly<Record<string, string | undefined>> }): NodeRunnerHere {
  const runner = new NodeRunner({ engines: options.engines, readRecording: options.readRecording, channel: { send: options.send, exit: () => undefined }, environment: options.environment ?? process.env });
  return { receive: (raw) => runner.receive(raw), shutdown: () => runner.shutdown() };
}

/** Where the runner's events go, and how it ends (`shutdown`): the process's IPC channel, or an in-process caller. */
interface RunnerChannel {
  send(event: RunnerEvent): void;
  exit(code: number): void;
}

/** The spool file (lib/server/runners/runner-spool.ts reads it); without it span batches go in the IPC messages, urgent ones at once. */
function openSpool(file: string | undefined): SpanSpool | undefined {
  if (!file) return undefined;
  try {
    return openSpoolFile(file);
  } catch (error) {
    console.error(`runner: no span spool (${error instanceof Error ? error.message : String(error)}); span batches go in the IPC messages`);
    return undefined;
  }
}

/** A stepped run in progress: its pauses, and the engine that checks a decision by its runtime's schemas. */
interface SteppedRun {
  stepper: RunStepper;
  engine: LoadedEngine;
  command: GenerateCommand;
}

class NodeRunner {
  private readonly projectDir = process.cwd();
  private readonly toolsDir: string;
  private readonly scenariosDir: string;
  private readonly toolTimeoutMs: number;
  private readonly pauseTimeoutMs: number;
  private readonly send: (event: RunnerEvent) => void;
  private readonly outbox: RunnerSpanOutbox;
  /** True while the engines warm up before the runner is ready: those spans belong to no run and are not sent. */
  private warmingUp = false;
  private readonly telemetry;
  /** Requests in flight, by run: what the user's Stop reaches (request-stop.ts). */
  private readonly inFlight = new Map<string, RequestStop>();
  /** Stepped runs in progress, by run id (a run's resumes reuse its stepper's mode). */
  private readonly steppers = new Map<string, SteppedRun>();
  /**
   * Commands are heard from the first moment, so pings are answered while tools load (a tool
   * module stuck at import is then caught by the server's heartbeat); generate commands wait
   * until loading is done.
   */
  private readonly loaded: Promise<LoadedEngine[]>;

  constructor(private readonly options: NodeRunnerOptions & { channel: RunnerChannel; environment: Readonly<Record<string, string | undefined>> }) {
    const environment = options.environment;
    this.toolsDir = path.resolve(this.projectDir, environment.LOOPSCOPE_TOOLS_DIR ?? 'tools');
    this.scenariosDir = path.resolve(this.projectDir, environment.LOOPSCOPE_SCENARIOS_DIR ?? path.join(this.toolsDir, 'scenarios'));
    this.toolTimeoutMs = Number(environment.LOOPSCOPE_TOOL_TIMEOUT_MS ?? 30_000);
    this.pauseTimeoutMs = Number(environment.LOOPSCOPE_PAUSE_TIMEOUT_MS ?? 15 * 60_000);
    this.send = (event) => options.channel.send(event);
    this.outbox = new RunnerSpanOutbox(this.send, openSpool(environment.LOOPSCOPE_RUNNER_SPOOL));
    this.telemetry = startRunnerTelemetry({
      // Telemetry starts before any engine loads (a runtime binds to the tracer provider it finds when imported): engines say what their spans carry at the start unloaded.
      spanStarts: engineSpanStarts(options.engines),
      // A run's trace ids reach the server with its spans (lib/server/runners/runner-process.ts ties them to the run).
      onSpanStart: (span, { urgent }) => this.outbox.queueStart(span, urgent),
      onSpanEnd: (span, owner) => {
        if (!this.warmingUp) this.outbox.queueEnd(span, owner);
      },
    });
    this.loaded = this.load();
  }

  /** Sends what is still queued (the process is exiting). */
  flush(): void {
    this.outbox.flush();
  }

  shutdown(): Promise<void> {
    return this.telemetry.shutdown();
  }

  /** Loads every engine (after telemetry started: their runtimes' tracers bind to its provider), warms them up, and says ready. */
  private async load(): Promise<LoadedEngine[]> {
    const { loadScenarios } = await import('./scenario');
    const scenarioList = await loadScenarios(this.scenariosDir);
    const engines: LoadedEngine[] = [];
    for (const engine of this.options.engines) engines.push(await engine.load({ toolsDir: this.toolsDir, scenarios: scenarioList.scenarios, environment: this.options.environment }));
    this.warmingUp = true;
    try {
      for (const engine of engines) await engine.warmUp?.();
    } finally {
      this.warmingUp = false;
    }
    this.send({
      type: 'ready',
      pid: process.pid,
      toolsByRuntime: Object.fromEntries(this.options.engines.map((engine, index) => [engine.runtime, [...engines[index].tools]])),
      models: engines.flatMap((engine) => engine.models),
      scenarios: scenarioList.scenarios,
      problems: [...engines.flatMap((engine) => engine.problems), ...scenarioList.problems.map((problem) => ({ ...problem, file: `scenarios/${problem.file}` }))],
    });
    return engines;
  }

  /**
   * Ends the request's spans that its runtime left open — as failed with the run's cause (a tool
   * past its time limit never settles, so genkit never ends its span), or as stopped when the user
   * stopped the run — in each span's runtime shape, then sends every queued span event with the
   * request's result behind them, in one message: the server has all of the request's spans before
   * its result, and stores them before it says the run is done (lib/server/runners/runner-supervisor.ts).
   * One write, not two: each wakes the server (bench/runner-process-overhead.bench.ts). A request reported
   * over while its code still runs says so (`codeLeftRunning`): the server replaces this runner.
   */
  private finishRequest(result: Extract<RunnerEvent, { type: 'generate-result' | 'replay-result' }>, stop?: RequestStop): void {
    this.telemetry.closeOpenSpans(
      result.requestId,
      stop?.stopped
        ? { ending: { kind: 'stopped', message: 'The run was stopped by the user before this span ended (closed by Loopscope).' }, closedBy: 'run-stopped' }
        : { ending: { kind: 'failed', message: result.failure?.message ?? 'The run ended before this span did.' }, closedBy: 'run-ended' },
    );
    if (stop?.leftRunning) this.telemetry.abandon(result.requestId);
    this.outbox.flush(stop?.leftRunning ? { ...result, codeLeftRunning: true } : result);
  }

  /**
   * Runs one request so that Stop ends it at once: its own result, or — when Stop could not wait
   * for its code (a tool executing) — the stopped failure, while that code is left behind.
   */
  private async stoppable<Result extends object>(options: {
    runId: string;
    requestId: string;
    stepper?: RunStepper;
    work: (abortSignal: AbortSignal) => Promise<Result>;
  }): Promise<{ result: Result | { failure: GenerateFailure }; stop: RequestStop }> {
    const stop = new RequestStop({ runningTool: () => this.telemetry.runningTool(options.requestId, options.stepper?.pausedTools()), stepper: options.stepper });
    this.inFlight.set(options.runId, stop);
    try {
      const result = await Promise.race([options.work(stop.abort.signal), stop.abandoned.then((failure) => ({ failure }))]);
      stop.settled();
      return { result, stop };
    } finally {
      if (this.inFlight.get(options.runId) === stop) this.inFlight.delete(options.runId);
    }
  }

  private async handleReplay(command: ReplayCommand) {
    await this.loaded;
    const run = { runId: command.runId, requestId: command.requestId, traceIds: new Set<string>() };
    const { result, stop } = await this.stoppable({ runId: command.runId, requestId: command.requestId, work: () => this.replay(command, run) });
    this.finishRequest({ type: 'replay-result', requestId: command.requestId, runId: command.runId, traceIds: [...run.traceIds], ...result }, stop);
  }

  /** Replays a recording with the engine of the runtime that made it (models and tools from it, or this runner's tools), spans captured as a run. */
  private async replay(command: ReplayCommand, run: { runId: string; requestId: string; traceIds: Set<string> }): Promise<{ report?: ReplayReport; failure?: GenerateFailure }> {
    try {
      const engines = await this.loaded;
      const { loadRecording } = await import('./load-recording');
      // The server sends where the recording is, not the recording: it is read here.
      const read = await this.options.readRecording(await loadRecording(command.recording));
      const index = this.options.engines.findIndex((engine) => engine.runtime === read.runtime);
      const engine = index >= 0 ? engines[index] : undefined;
      // A runtime of another process (genkit Go: its own runner) is sent there by the server, never here.
      if (!engine?.replay) throw new LoopscopeError('FAILED_PRECONDITION', `A ${read.runtime} recording is not replayed in a node runner.`);
      const report = await runContext.run(run, () => engine.replay!({ recording: read.recording, command, toolsDir: this.toolsDir }));
      return { report };
    } catch (error) {
      return { failure: { message: error instanceof Error ? error.message : String(error), status: (error as { code?: string }).code } };
    }
  }

  private async handleStepCommand(command: Exclude<RunnerCommand, { type: 'generate' | 'replay' | 'ping' | 'shutdown' }>) {
    await this.loaded;
    const reply = (ok: boolean, extra: { problems?: string[]; message?: string } = {}) => this.send({ type: 'command-result', requestId: command.requestId, ok, ...extra });
    if (command.type === 'stop') {
      // Any run in flight here stops, stepped or not (request-stop.ts).
      const stop = this.inFlight.get(command.runId);
      if (!stop) return reply(false, { message: `Run ${command.runId} is not running in this runner.` });
      stop.stop();
      return reply(true);
    }
    const stepped = this.steppers.get(command.runId);
    if (!stepped) return reply(false, { message: `Run ${command.runId} is not running in this runner.` });
    const { stepper } = stepped;
    if (command.type === 'set-mode') {
      stepper.setMode(command.mode);
      return reply(true);
    }
    const pause = stepper.pauseInfo(command.pauseId);
    if (!pause) return reply(false, { message: 'That pause is over (the run moved on, was stopped or timed out).' });
    const refusal = stepper.refusal(pause, command.decision.action);
    if (refusal) return reply(false, { message: refusal });
    const problems = await stepped.engine.checkDecision({ command: stepped.command, pause, decision: command.decision });
    const forced = 'force' in command.decision && command.decision.force === true;
    if (problems.length > 0 && !forced) return reply(false, { problems, message: `The decision breaks the tool’s schema; send it with force to see what ${stepped.engine.words} does.` });
    stepper.decide(command.pauseId, command.decision);
    return reply(true, { problems });
  }

  async receive(raw: unknown): Promise<void> {
    const parsed = RunnerCommandSchema.safeParse(raw);
    if (!parsed.success) {
      console.error(`runner: ignored a malformed command: ${parsed.error.issues[0]?.message}`);
      return;
    }
    const command = parsed.data;
    // The spool is emptied once the server has read all of it (runner-span-outbox.ts).
    if (command.type === 'ping' || command.type === 'generate' || command.type === 'replay') this.outbox.serverRead(command.spoolRead);
    if (command.type === 'ping') return this.send({ type: 'pong', sentAt: command.sentAt });
    if (command.type === 'shutdown') {
      await this.telemetry.shutdown().catch(() => undefined);
      return this.options.channel.exit(0);
    }
    if (command.type === 'replay') return this.handleReplay(command);
    if (command.type !== 'generate') return this.handleStepCommand(command);
    return this.generate(command);
  }

  private async generate(command: GenerateCommand): Promise<void> {
    const engines = await this.loaded;
    const run = { runId: command.runId, requestId: command.requestId, traceIds: new Set<string>() };
    const engine = engines.find((candidate) => candidate.plays(command));
    if (!engine) {
      const failure = { message: `No runtime in this runner plays scenario "${command.scenario}".`, status: 'NOT_FOUND' };
      return this.finishRequest({ type: 'generate-result', requestId: command.requestId, runId: command.runId, traceIds: [], failure });
    }
    // Every runtime pauses through one RunStepper; only how a decision is checked differs.
    let stepper: RunStepper | undefined;
    if (command.mode) {
      const { RunStepper } = await import('./run-stepper');
      stepper = new RunStepper(command.mode, {
        pauseTimeoutMs: this.pauseTimeoutMs,
        // Behind the spans that led to it (the paused span's start among them), in one message: the
        // server knows the pause's trace and open span before the pause.
        onPause: (pause: PauseInfo) => this.outbox.flush({ type: 'paused', runId: command.runId, pause: { ...pause, traceId: [...run.traceIds].at(-1) } }),
        onPauseEnded: (pauseId: string) => this.send({ type: 'pause-ended', runId: command.runId, pauseId }),
      });
      this.steppers.set(command.runId, { stepper, engine, command });
    }
    const { result, stop } = await this.stoppable({
      runId: command.runId,
      requestId: command.requestId,
      stepper,
      work: (abortSignal) => runContext.run(run, () => engine.generate({ command, toolTimeoutMs: this.toolTimeoutMs, stepper, abortSignal })),
    }).finally(() => {
      if (stepper && this.steppers.get(command.runId)?.stepper === stepper) this.steppers.delete(command.runId);
    });
    this.finishRequest({ type: 'generate-result', requestId: command.requestId, runId: command.runId, traceIds: [...run.traceIds], ...result }, stop);
  }
}
