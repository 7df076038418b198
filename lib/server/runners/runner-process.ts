import { spawn, type ChildProcess } from 'node:child_process';
import { loopscopeInstall, programArguments } from '../../install/loopscope-install';
import type { GenerateCommand, ReplayCommand, RunnerEvent, SpanStartEvent, ToolInfo } from '../../runner/runner-protocol';
import type { Scenario } from '../../runner/scenario';
import type { PauseInfo } from '../../runner/step-protocol';
import type { GenerateResult, StepCommand, StepCommandResult } from '../../runner/run-requests';
import type { Span } from '../../spans/span';
import { spanEventsOf } from '../../runner/span-batch-frames';
import { RunnerSpanLedger, spansFromEndedRecords } from './runner-span-ledger';
import { newSpoolPath, RunnerSpool } from './runner-spool';

export type RunnerRequest = Omit<GenerateCommand, 'requestId' | 'spoolRead'> | Omit<ReplayCommand, 'requestId' | 'spoolRead'>;

/** What a runner loaded when it became ready. */
export interface RunnerCatalog {
  /** The tools each runtime loaded, by runtime id. */
  toolsByRuntime: Record<string, ToolInfo[]>;
  /** Models defined in the runner: a resume of a recording can only call one of these. */
  models: string[];
  scenarios: Scenario[];
  problems: { file: string; message: string }[];
}

/** A request in flight in this runner. */
export interface PendingRequest {
  requestId: string;
  runId: string;
  traceIds: Set<string>;
  resolve: (result: GenerateResult) => void;
}

/** How the runner process is started (the supervisor's settings). */
export interface RunnerSpawnSettings {
  projectDir: string;
  toolsDir: string;
  toolTimeoutMs: number;
  memoryLimitMb: number;
  pauseTimeoutMs?: number;
  /** Signs the approvals of AI SDK scenarios that ask for it: one per server, so any runner verifies what another signed. */
  approvalSecret?: string;
  /** More environment for the child (the real-model endpoint, lib/server/services/provider-config.ts); wins over the server's own. */
  extraEnvironment?: Record<string, string>;
}

/** What the process tells its owner. */
export interface RunnerProcessEvents {
  onReady(process: RunnerProcess): void;
  onExit(process: RunnerProcess, exit: { code: number | null; signal: NodeJS.Signals | null }): void;
  onSpanStarts(events: SpanStartEvent[]): void;
  /** Spans that ended in the runner, in the order they ended: to be stored. */
  onSpanEnds(spans: Span[]): void;
  onRunTrace(runId: string, traceId: string): void;
  onPause(runId: string, pause: PauseInfo): void;
  onPauseEnded(runId: string, pauseId: string): void;
}

/**
 * Keeps the child's environment free of the server's own settings (NODE_ENV, Next's internals,
 * PORT) and of the API token: the runner sends its spans over IPC, so tools/ code never needs it.
 */
function runnerEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(NEXT_|__NEXT|TURBOPACK)/.test(key) || ['NODE_ENV', 'PORT', 'GENKIT_ENV', 'NODE_OPTIONS', 'LOOPSCOPE_TOKEN'].includes(key)) continue;
    environment[key] = value;
  }
  return { ...environment, ...extra } as NodeJS.ProcessEnv;
}

let requestCounter = 0;

/**
 * One runner child process: its IPC, its requests and step commands in flight, its
 * heartbeat, and the ledger of its open spans. It knows nothing of
 * other runners; the pool decides what runs where and the supervisor what a death means.
 */
export class RunnerProcess {
  readonly ledger = new RunnerSpanLedger();
  /** The runner's spool file, which its spans come through (runner-spool.ts). */
  private readonly spool = new RunnerSpool(newSpoolPath());
  readonly startedAt = Date.now();
  state: 'starting' | 'ready' | 'exited' = 'starting';
  /** When it became ready (loaded genkit and tools/), if it did. */
  readyAt?: number;
  pid?: number;
  catalog?: RunnerCatalog;
  /** Why the server killed it (heartbeat, restart); undefined when it died by itself. */
  exitReason?: string;
  /** Set when the pool ended it on purpose with nothing left in flight (a spare too many, tools changed). */
  retired = false;
  /** Finishes what it runs, then is retired (tools/ changed under it, or a stopped run left code running in it). */
  retiring = false;
  /** Runs here the user stopped: if the runner dies (is killed for them), their open spans are closed as stopped. */
  readonly stoppedRuns = new Set<string>();
  private readonly child: ChildProcess;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly pendingCommands = new Map<string, (result: StepCommandResult) => void>();
  /** Open pauses by run, then by pause id: a run whose every pause is open runs no code. */
  private readonly pauses = new Map<string, Map<string, PauseInfo>>();
  private lastPong = Date.now();

  constructor(
    settings: RunnerSpawnSettings,
    private readonly events: RunnerProcessEvents,
  ) {
    // node + --import tsx + the source in a clone, node + the bundle in the installed package
    // (lib/install/loopscope-install.ts); never the tsx CLI: the pid we hold is the runner's own,
    // and it exits on IPC disconnect even if the server is SIGKILLed (docs/runtime-notes.md).
    const program = programArguments({ install: loopscopeInstall(settings.projectDir), program: 'runner' });
    this.child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${settings.memoryLimitMb}`,
        // For benchmarks (bench/lib/bench-server.ts): a CPU profile of each runner, written when it exits.
        ...(process.env.LOOPSCOPE_RUNNER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOOPSCOPE_RUNNER_CPU_PROF}`] : []),
        ...program,
      ],
      {
        cwd: settings.projectDir,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        // The V8 serializer, not JSON: a run's span batch (~200 KB of attribute strings that are
        // themselves JSON) is copied rather than escaped and parsed on both sides (bench/capture-overhead.bench.ts).
        serialization: 'advanced',
        env: runnerEnvironment({
          LOOPSCOPE_TOOLS_DIR: settings.toolsDir,
          LOOPSCOPE_TOOL_TIMEOUT_MS: String(settings.toolTimeoutMs),
          LOOPSCOPE_RUNNER_SPOOL: this.spool.file,
          ...(settings.pauseTimeoutMs ? { LOOPSCOPE_PAUSE_TIMEOUT_MS: String(settings.pauseTimeoutMs) } : {}),
          ...(settings.approvalSecret ? { LOOPSCOPE_APPROVAL_SECRET: settings.approvalSecret } : {}),
          ...settings.extraEnvironment,
        }),
      },
    );
    this.pid = this.child.pid;
    this.child.on('message', (message) => this.onMessage(message as RunnerEvent));
    this.child.on('exit', (code, signal) => this.exited({ code, signal }));
    this.child.on('error', (error) => {
      this.exitReason ??= `The runner could not start: ${error.message}`;
      // A process that never started emits no 'exit' (node's docs: it may or may not).
      if (this.child.pid === undefined) this.exited({ code: null, signal: null });
    });
  }

  private exited(exit: { code: number | null; signal: NodeJS.Signals | null }): void {
    if (this.state === 'exited') return;
    this.state = 'exited';
    for (const [requestId, resolve] of this.pendingCommands) {
      this.pendingCommands.delete(requestId);
      resolve({ ok: false, message: 'The runner exited before it answered.' });
    }
    this.events.onExit(this, exit);
  }

  /** Run ids of the requests in flight here. */
  get runIds(): string[] {
    return [...new Set([...this.pending.values()].map((request) => request.runId))];
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** True when every run here is paused and none of its tools is executing (sharing risks no running code). */
  get onlyPausedRuns(): boolean {
    if (this.pending.size === 0) return false;
    return this.runIds.every((runId) => {
      const pauses = this.pauses.get(runId);
      if (!pauses || pauses.size === 0) return false;
      const pausedTools = [...pauses.values()].flatMap((pause) => (pause.tool ? [pause.tool] : []));
      return !this.ledger.hasRunningTool(runId, pausedTools);
    });
  }

  holdsRun(runId: string): boolean {
    for (const request of this.pending.values()) if (request.runId === runId) return true;
    return false;
  }

  /**
   * Sends a generate or replay. `done` resolves with its result; if the process dies first,
   * whoever takes the pending requests (`takePending`) answers it.
   */
  request(command: RunnerRequest): { requestId: string; done: Promise<GenerateResult> } {
    const requestId = `${command.runId}:${++requestCounter}`;
    const done = new Promise<GenerateResult>((resolve) => {
      if (!this.child.connected) {
        resolve({ traceIds: [], failure: { message: 'The runner is restarting; try again.', status: 'UNAVAILABLE' } });
        return;
      }
      this.pending.set(requestId, { requestId, runId: command.runId, traceIds: new Set(), resolve });
      this.child.send({ ...command, requestId, spoolRead: this.spool.read }, (error) => {
        if (!error || !this.pending.delete(requestId)) return;
        resolve({ traceIds: [], failure: { message: `Could not reach the runner: ${error.message}`, status: 'UNAVAILABLE' } });
      });
    });
    return { requestId, done };
  }

  /**
   * The process died: the span starts and ends it wrote to its spool that no message announced
   * (a tool busy-looped or took it down before the event loop turned) go into the ledger, and
   * the ended spans are returned, to be stored. Call it before `ledger.remains`.
   */
  takeSpooled(): Span[] {
    const missed = this.spool.takeMissed();
    this.noteTraces(missed.starts);
    this.noteTraces(missed.endRecords);
    this.ledger.recordStarts(missed.starts);
    this.ledger.recordEnds(missed.endRecords);
    return missed.ends;
  }

  /** Hands over (and forgets) every request in flight: the process died under them. */
  takePending(): PendingRequest[] {
    const requests = [...this.pending.values()];
    this.pending.clear();
    this.pauses.clear();
    return requests;
  }

  /** Sends a step command (decision, mode change, stop) and waits for the runner's answer (10 s unless `timeoutMs` says). */
  command(command: StepCommand, options: { timeoutMs?: number } = {}): Promise<StepCommandResult> {
    if (!this.child.connected) return Promise.resolve({ ok: false, message: 'The runner is not running.' });
    const requestId = `command:${++requestCounter}`;
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingCommands.delete(requestId);
        resolve({ ok: false, unanswered: true, message: `The runner did not answer within ${timeoutMs / 1000} s.` });
      }, timeoutMs);
      timer.unref();
      this.pendingCommands.set(requestId, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.child.send({ ...command, requestId }, (error) => {
        if (!error) return;
        this.pendingCommands.delete(requestId);
        clearTimeout(timer);
        resolve({ ok: false, message: `Could not reach the runner: ${error.message}` });
      });
    });
  }

  /**
   * Kills a runner that answered no ping for `limitMs` (three times that while it loads
   * tools/: importing genkit blocks the event loop in chunks). Pings it otherwise.
   */
  checkHeartbeat(limitMs: number): void {
    if (this.state === 'exited' || !this.child.connected) return;
    const limit = this.state === 'ready' ? limitMs : limitMs * 3;
    if (Date.now() - this.lastPong > limit) {
      const seconds = Math.round(limit / 100) / 10;
      this.kill(
        this.state === 'ready'
          ? `The runner stopped answering for ${seconds} s (a tool may be stuck in a busy loop), so it was killed.`
          : `The runner stopped answering for ${seconds} s while loading tools/ (a tool module may be stuck at import), so it was killed.`,
      );
      return;
    }
    this.child.send({ type: 'ping', sentAt: Date.now(), spoolRead: this.spool.read }, () => undefined);
  }

  /** Kills the process now; runs in flight fail with `reason`. */
  kill(reason: string): void {
    this.exitReason ??= reason;
    if (this.state !== 'exited') this.child.kill('SIGKILL');
  }

  /** Ends an idle process quietly (nothing in flight): a clean shutdown, SIGKILL if it lingers. */
  retire(): void {
    this.retired = true;
    if (this.state === 'exited') return;
    if (this.state === 'ready' && this.child.connected) {
      this.child.send({ type: 'shutdown' }, () => undefined);
      setTimeout(() => this.child.kill('SIGKILL'), 2_000).unref();
    } else this.child.kill('SIGKILL');
  }

  /** Stops the process (server shutdown): SIGTERM, then SIGKILL after 2 s. */
  stop(): Promise<void> {
    if (this.state === 'exited') return Promise.resolve();
    this.exitReason ??= 'The runner was stopped: Loopscope is shutting down.';
    return new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
      setTimeout(() => this.child.kill('SIGKILL'), 2_000).unref();
    });
  }

  /**
   * Ties the traces these span starts or ends belong to to their requests and runs, each trace
   * once, before their spans are published (the page's filter by run needs it). The spans say
   * it themselves: a message of its own for each new trace woke this process once more per run
   * (bench/runner-process-overhead.bench.ts). Ends count too: a span that ended before its start left
   * the runner is reported by its end alone (runner-span-outbox.ts). A span of no run is not tied.
   */
  private noteTraces(spans: readonly { runId?: string; requestId?: string; traceId: string }[]): void {
    for (const span of spans) {
      if (span.runId === undefined) continue;
      const pending = span.requestId === undefined ? undefined : this.pending.get(span.requestId);
      if (pending?.traceIds.has(span.traceId)) continue;
      pending?.traceIds.add(span.traceId);
      this.events.onRunTrace(span.runId, span.traceId);
    }
  }

  private onMessage(event: RunnerEvent): void {
    switch (event.type) {
      case 'ready':
        this.state = 'ready';
        this.readyAt = Date.now();
        this.pid = event.pid;
        this.catalog = { toolsByRuntime: event.toolsByRuntime, models: event.models, scenarios: event.scenarios, problems: event.problems };
        this.events.onReady(this);
        break;
      case 'pong':
        this.lastPong = Date.now();
        break;
      case 'span-events': {
        const { starts, ends, problems } = spanEventsOf(event, (range) => this.spool.readRange(range));
        for (const problem of problems) console.error(`loopscope: spans from runner ${this.pid ?? '?'} could not be read (${problem}); the rest are kept`);
        if (starts.length > 0) {
          this.noteTraces(starts);
          this.ledger.recordStarts(starts);
          this.events.onSpanStarts(starts);
        }
        if (ends.length > 0) {
          this.noteTraces(ends);
          this.ledger.recordEnds(ends);
          this.events.onSpanEnds(spansFromEndedRecords(ends));
        }
        if (event.then) this.onMessage(event.then);
        break;
      }
      case 'paused': {
        let pauses = this.pauses.get(event.runId);
        if (!pauses) this.pauses.set(event.runId, (pauses = new Map()));
        pauses.set(event.pause.pauseId, event.pause);
        this.events.onPause(event.runId, event.pause);
        break;
      }
      case 'pause-ended':
        this.pauses.get(event.runId)?.delete(event.pauseId);
        this.events.onPauseEnded(event.runId, event.pauseId);
        break;
      case 'command-result': {
        const resolve = this.pendingCommands.get(event.requestId);
        this.pendingCommands.delete(event.requestId);
        resolve?.({ ok: event.ok, problems: event.problems, message: event.message });
        break;
      }
      case 'generate-result':
      case 'replay-result': {
        const pending = this.pending.get(event.requestId);
        if (!pending) break;
        this.pending.delete(event.requestId);
        // A stopped run's tool code still runs here: no run is given this runner again, and it is
        // retired once the runs it holds are done (runner-pool.ts release).
        if (event.codeLeftRunning) this.retiring = true;
        if (!this.holdsRun(pending.runId)) this.pauses.delete(pending.runId);
        pending.resolve(
          event.type === 'generate-result'
            ? { traceIds: event.traceIds, rootSpan: event.rootSpan, outcome: event.outcome, failure: event.failure }
            : { traceIds: event.traceIds, report: event.report, failure: event.failure },
        );
        break;
      }
    }
  }
}
