import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import type { RunnerProcessStatus, RunnerStatus } from '../../contract/runner-status';
import { errorMessage } from '../../errors';
import type { GenerateCommand, ReplayCommand, SpanStartEvent } from '../../runner/runner-protocol';
import type { PauseInfo } from '../../runner/step-protocol';
import { millisToNanos, type Span } from '../../spans/span';
import { describeRunnerDeath } from './describe-runner-death';
import { RunnerPool } from './runner-pool';
import { RunnerProcess, type RunnerCatalog, type RunnerRequest } from './runner-process';
import type { GenerateResult, StepCommand, StepCommandResult } from '../../runner/run-requests';
import { removeSpoolDirectory } from './runner-spool';
import { SpanWriteBehind } from '../ingest/span-write-behind';


// The status is a wire type: its one definition is the contract's (the page reads it as is).
export type { RunnerProcessStatus, RunnerStatus } from '../../contract/runner-status';

/** Which runner a run was given (or why it waits): shown with the run. */
export interface RunRunnerInfo {
  pid?: number;
  /** Set while the run waits for a runner. */
  waiting?: string;
  /** Isolation degraded: the paused runs this run shares its runner with (all runners were busy). */
  sharedWith?: string[];
}

export interface RunnerSupervisorOptions {
  projectDir: string;
  toolsDir: string;
  toolTimeoutMs: number;
  /** A runner that answers no ping for this long is killed (a busy loop in a tool). */
  heartbeatTimeoutMs: number;
  /** Heap limit of each runner, so a tool that eats memory kills its runner, not the machine. */
  memoryLimitMb: number;
  watchTools: boolean;
  /** A run paused longer than this is ended (LOOPSCOPE_PAUSE_TIMEOUT_MS; 15 min by default). */
  pauseTimeoutMs?: number;
  /** At most this many runner processes (LOOPSCOPE_MAX_RUNNERS; 4 by default). */
  maxRunners?: number;
  /** How long a run waits for a free runner before it fails (LOOPSCOPE_RUNNER_WAIT_MS; 60 s by default). */
  runnerWaitMs?: number;
  /**
   * Stores the runners' spans (they come over IPC, not through the OTLP receiver): each ended
   * span, and a dead runner's open spans closed as failed. A request's result waits for it.
   */
  ingestSpans?: (spans: Span[]) => Promise<void>;
  /** How long a burst of ended spans waits to be stored with what follows (SpanWriteBehind; tests). */
  writeBehind?: { quietMs?: number; maxDelayMs?: number };
  onSpanStart?: (span: SpanStartEvent) => void;
  onRunTrace?: (runId: string, traceId: string) => void;
  onStatus?: (status: RunnerStatus) => void;
  onPause?: (runId: string, pause: PauseInfo) => void;
  onPauseEnded?: (runId: string, pauseId: string) => void;
  onRunRunner?: (runId: string, info: RunRunnerInfo) => void;
  /** Environment each new runner gets on top of the server's (the real-model endpoint, read when the runner is spawned). */
  runnerEnvironment?: () => Record<string, string>;
}

const withoutPeriod = (sentence: string) => sentence.replace(/\.\s*$/, '');

/**
 * How long a runner has to answer a Stop. A runner answers at once (lib/runner/request-stop.ts:
 * it ends the run without waiting for a tool's code); one that does not has its event loop
 * blocked — a tool busy-looping — and is killed.
 */
export const STOP_ANSWER_MS = 1_000;
const STOPPED_SPAN_MESSAGE = 'The run was stopped by the user before this span ended (closed by Loopscope).';

/**
 * Starts and watches the runner processes (a pool: see runner-pool.ts). Whatever a tool does
 * — throw, hang, exit, busy-loop, eat memory — the worst outcome is its own run failed (with
 * the tool named and its spans kept) and a fresh runner; other runs go on.
 */
export class RunnerSupervisor {
  private readonly pool: RunnerPool;
  private readyWaiters: (() => void)[] = [];
  private heartbeat?: NodeJS.Timeout;
  private watcher?: FSWatcher;
  private watchTimer?: NodeJS.Timeout;
  private stopped = true;
  /** startAfter() waits for its signal: the first run starts the runners instead. */
  private startPending = false;
  private catalog: RunnerCatalog = { toolsByRuntime: {}, models: [], scenarios: [], problems: [] };
  /** Signs AI SDK approvals (`experimental_toolApprovalSecret`); lives as long as this server, never written anywhere. */
  private readonly approvalSecret = randomBytes(32).toString('base64url');
  private restarts = 0;
  private lastRestartReason?: string;
  private statusText = '';
  private catalogText = '';
  private catalogVersion = 0;
  private readonly writeBehind: SpanWriteBehind;
  status: RunnerStatus = { state: 'stopped', toolsByRuntime: {}, models: [], scenarios: [], problems: [], restarts: 0 };

  constructor(private readonly options: RunnerSupervisorOptions) {
    this.writeBehind = new SpanWriteBehind({
      ...options.writeBehind,
      write: (spans) => options.ingestSpans?.(spans) ?? Promise.resolve(),
      onError: (error, spans) => console.error(`loopscope: ${spans.length} span(s) from a runner could not be stored: ${errorMessage(error)}`),
    });
    this.pool = new RunnerPool({
      capacity: Math.max(1, Math.floor(options.maxRunners ?? 4)),
      waitMs: options.runnerWaitMs ?? 60_000,
      createProcess: () => this.createProcess(),
      onWaiting: (runId, reason) => this.options.onRunRunner?.(runId, { waiting: reason }),
      onChange: () => this.refreshStatus(),
    });
  }

  start(): void {
    this.startPending = false;
    if (!this.stopped) return;
    this.stopped = false;
    if (this.options.watchTools && !this.watcher) this.watchTools();
    this.pool.start();
    if (!this.heartbeat) {
      // Several pings per timeout, so a healthy runner is never judged on one late pong.
      const interval = Math.max(50, Math.min(1_000, this.options.heartbeatTimeoutMs / 4));
      this.heartbeat = setInterval(() => this.pool.forEachLive((process) => process.checkHeartbeat(this.options.heartbeatTimeoutMs)), interval);
      this.heartbeat.unref();
    }
  }

  private createProcess(): RunnerProcess {
    const { projectDir, toolsDir, toolTimeoutMs, memoryLimitMb, pauseTimeoutMs } = this.options;
    return new RunnerProcess(
      { projectDir, toolsDir, toolTimeoutMs, memoryLimitMb, pauseTimeoutMs, approvalSecret: this.approvalSecret, extraEnvironment: this.options.runnerEnvironment?.() },
      {
        onReady: (process) => {
          if (process.catalog && this.pool.isUsable(process)) this.setCatalog(process.catalog);
          this.pool.processReady();
        },
        onExit: (process, exit) => void this.onProcessExit(process, exit),
        onSpanStarts: (events) => {
          for (const event of events) this.options.onSpanStart?.(event);
        },
        onSpanEnds: (spans) => this.writeBehind.add(spans),
        onRunTrace: (runId, traceId) => this.options.onRunTrace?.(runId, traceId),
        onPause: (runId, pause) => {
          this.options.onPause?.(runId, pause);
          this.pool.runPaused();
        },
        onPauseEnded: (runId, pauseId) => this.options.onPauseEnded?.(runId, pauseId),
      },
    );
  }

  /**
   * A runner died. Its open spans are closed as failed (the cause as their message) and
   * stored with the ended ones still waiting to be written, then each of its runs fails
   * saying which tool was running. Runs on other runners are not touched.
   */
  private async onProcessExit(process: RunnerProcess, exit: { code: number | null; signal: NodeJS.Signals | null }): Promise<void> {
    const headline = withoutPeriod(process.exitReason ?? (exit.signal ? `The runner was killed (${exit.signal})` : `The runner exited with code ${exit.code}`));
    // What it wrote to its spool and no message announced (a tool's busy loop, a crash) counts as reported.
    const spooled = process.takeSpooled();
    const remains = process.ledger.remains({
      endTimeUnixNano: millisToNanos(Date.now()),
      message: `${headline} before this span ended (closed by Loopscope).`,
      stopped: { runIds: process.stoppedRuns, message: STOPPED_SPAN_MESSAGE },
    });
    const pending = process.takePending();
    if (!process.retired && !this.stopped) {
      this.restarts += 1;
      this.lastRestartReason = headline;
    }
    this.pool.processExited(process);
    this.writeBehind.add(spooled);
    this.writeBehind.add(remains.closed);
    await this.writeBehind.flush();
    for (const request of pending) {
      const stoppedByUser = process.stoppedRuns.has(request.runId);
      request.resolve({
        traceIds: [...request.traceIds],
        failure: {
          message: describeRunnerDeath({ headline, killedByServer: process.exitReason !== undefined, stoppedByUser, runId: request.runId, runningTools: remains.runningTools }),
          status: stoppedByUser ? 'CANCELLED' : 'UNAVAILABLE',
        },
      });
    }
  }

  /** The catalog the runners loaded; a different one gets the next version (a page then reads it again). */
  private setCatalog(catalog: RunnerCatalog): void {
    const text = JSON.stringify(catalog);
    if (text === this.catalogText) return;
    this.catalog = catalog;
    this.catalogText = text;
    this.catalogVersion += 1;
  }

  private refreshStatus(): void {
    const usable = [...this.pool.processes].filter((process) => this.pool.isUsable(process));
    const ready = usable.filter((process) => process.state === 'ready');
    const spare = this.pool.idleRunner() ?? ready[0] ?? usable[0];
    const runners: RunnerProcessStatus[] = [...this.pool.processes]
      .filter((process) => process.state !== 'exited' && !process.retired)
      .map((process) => ({
        pid: process.pid,
        state: process.retiring ? 'retiring' : process.state === 'starting' ? 'starting' : this.pool.leasesOf(process) > 0 ? 'busy' : 'idle',
        runIds: process.runIds,
      }));
    const state: RunnerStatus['state'] = this.stopped ? 'stopped' : ready.length > 0 ? 'ready' : this.restarts > 0 ? 'restarting' : 'starting';
    const next: RunnerStatus = {
      state,
      pid: this.stopped ? undefined : spare?.pid,
      ...this.catalog,
      ...(this.lastRestartReason ? { lastRestartReason: this.lastRestartReason } : {}),
      restarts: this.restarts,
      runners,
      capacity: this.pool.capacity,
      waiting: this.pool.waiting,
      catalogVersion: this.catalogVersion,
    };
    const text = JSON.stringify({ ...next, toolsByRuntime: Object.fromEntries(Object.entries(next.toolsByRuntime).map(([runtime, tools]) => [runtime, tools.length])), scenarios: next.scenarios.length, problems: next.problems.length });
    this.status = next;
    if (text !== this.statusText) {
      this.statusText = text;
      this.options.onStatus?.(next);
    }
    if (state === 'ready') for (const waiter of this.readyWaiters.splice(0)) waiter();
  }

  private watchTools(): void {
    try {
      this.watcher = watch(this.options.toolsDir, { recursive: true }, (_event, file) => {
        clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => this.reloadTools(`tools/${file ?? ''} changed`), 250);
      });
      this.watcher.on('error', () => undefined);
    } catch {
      // No tools folder yet: nothing to watch; the runner reports it as a problem.
    }
  }

  /**
   * tools/ changed: idle runners are replaced at once; a busy one finishes its run with the
   * code it loaded (an editor save must not fail a run in flight), then is replaced.
   */
  private reloadTools(reason: string): void {
    this.restarts += 1;
    this.lastRestartReason = reason;
    this.pool.replaceAll();
  }

  /**
   * Something every runner loads at start changed (the real-model endpoint): replaced as for a
   * tools/ change — idle runners at once, a busy one after its run.
   */
  replaceRunners(reason: string): void {
    this.reloadTools(reason);
  }

  /** Waits until a runner is ready (or the timeout passes). */
  whenReady(timeoutMs = 30_000): Promise<boolean> {
    if (this.status.state === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Runs one generate call on a runner of its own. Never rejects: failures come back as data. */
  generate(command: Omit<GenerateCommand, 'type' | 'requestId'>): Promise<GenerateResult> {
    return this.request({ type: 'generate', ...command });
  }

  /** Replays a recording on a runner of its own (a fresh genkit instance); its spans are captured as the run's. */
  replay(command: Omit<ReplayCommand, 'type' | 'requestId'>): Promise<GenerateResult> {
    return this.request({ type: 'replay', ...command });
  }

  /**
   * Starts the runners once `signal` settles, or at once when a run asks for one (or `start()`
   * is called: the scenario list does) before that. For the server that starts the developer's
   * app: the runners' warm-up, ≈1.5 s of CPU each, waits until the app's own start is done
   * (start-runners.ts).
   */
  startAfter(signal: Promise<unknown>): void {
    if (!this.stopped) return;
    this.startPending = true;
    void signal.finally(() => {
      if (this.startPending) this.start();
    });
  }

  private async request(command: RunnerRequest): Promise<GenerateResult> {
    if (this.startPending) this.start();
    const acquired = await this.pool.acquire(command.runId);
    if ('failure' in acquired) return { traceIds: [], failure: { message: acquired.failure, status: acquired.status ?? 'UNAVAILABLE' } };
    const { process, sharedWith } = acquired.assignment;
    this.options.onRunRunner?.(command.runId, { pid: process.pid, ...(sharedWith ? { sharedWith } : {}) });
    const { requestId, done } = process.request(command);
    this.refreshStatus();
    const result = await done;
    process.ledger.endRequest(requestId);
    // IPC keeps order: every span the request ended arrived before its result. The caller
    // reports the run done, so its spans are handed to the store first; the store answers any
    // read after them (read-your-writes), and the run's end does not wait for their commit.
    void this.writeBehind.flush();
    this.pool.release(process);
    return result;
  }

  /** Sends a step command (decision, mode change, stop) to the runner that runs the run. */
  command(command: StepCommand): Promise<StepCommandResult> {
    if (command.type === 'stop') return this.stopRun(command.runId);
    const process = this.runnerOf(command.runId);
    if (!process) return Promise.resolve({ ok: false, message: `Run ${command.runId} is not running in any runner.` });
    return process.command(command);
  }

  private runnerOf(runId: string): RunnerProcess | undefined {
    return [...this.pool.processes].find((candidate) => candidate.state !== 'exited' && candidate.holdsRun(runId));
  }

  /**
   * Stop, for a run of any mode: a run still waiting for a runner leaves the line; a running
   * one is stopped by its runner, which ends it at once (lib/runner/request-stop.ts: a tool
   * executing is not waited for, and the runner is then replaced: runner-process.ts). A runner
   * that does not answer within STOP_ANSWER_MS is stuck (a tool busy-looping): it is killed, its
   * run's open spans closed as stopped, other runs it held failed as for any death, and a fresh
   * runner replaces it.
   */
  private async stopRun(runId: string): Promise<StepCommandResult> {
    if (this.pool.withdraw({ runId, failure: 'The run was stopped by the user while it waited for a runner.', status: 'CANCELLED' })) return { ok: true };
    const process = this.runnerOf(runId);
    if (!process) return { ok: false, message: `Run ${runId} is not running in any runner.` };
    const answer = await process.command({ type: 'stop', runId }, { timeoutMs: STOP_ANSWER_MS });
    if (!answer.unanswered) return answer;
    // It ended meanwhile (the answer was late, not missing): nothing to kill.
    if (!process.holdsRun(runId)) return { ok: true };
    process.stoppedRuns.add(runId);
    process.kill(`The run was stopped by the user, and its runner did not answer within ${STOP_ANSWER_MS / 1000} s (a tool may be stuck in a busy loop), so it was killed.`);
    return { ok: true };
  }

  /** Replaces every runner now (the user asked). Runs in flight fail with the reason. */
  restart(reason: string): void {
    this.restarts += 1;
    this.lastRestartReason = reason;
    this.pool.killAll(`The runner was restarted because ${reason}.`);
  }

  async stop(): Promise<void> {
    this.startPending = false;
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    await this.pool.stop();
    // What the runners ended last is stored before the server goes.
    await this.writeBehind.flush();
    removeSpoolDirectory();
    this.refreshStatus();
  }
}
