import { spawn, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { ReplayReport } from '../replay/replay-report';
import type { GenerateCommand, GenerateFailure, GenerateOutcome, ReplayCommand, RunnerEvent, SpanStartEvent, ToolInfo } from '../runtime/runner-protocol';
import type { Scenario } from '../runtime/scenario';
import type { PauseDecision, PauseInfo, RunMode } from '../runtime/step-protocol';

export interface RunnerStatus {
  state: 'starting' | 'ready' | 'restarting' | 'stopped';
  pid?: number;
  tools: ToolInfo[];
  /** Models defined in the runner: a resume of a recording can only call one of these. */
  models: string[];
  scenarios: Scenario[];
  problems: { file: string; message: string }[];
  /** Why the runner was last restarted (tools changed, crashed, hung). */
  lastRestartReason?: string;
  restarts: number;
}

export interface GenerateResult {
  traceIds: string[];
  /** The generate call's root span (a resume of it links there). */
  rootSpan?: { traceId: string; spanId: string };
  outcome?: GenerateOutcome;
  failure?: GenerateFailure;
  /** A replay's report. */
  report?: ReplayReport;
}

export interface RunnerSupervisorOptions {
  projectDir: string;
  otlpEndpoint: string;
  token: string;
  toolsDir: string;
  toolTimeoutMs: number;
  /** A runner that answers no ping for this long is killed (a busy loop in a tool). */
  heartbeatTimeoutMs: number;
  /** Heap limit of the runner, so a tool that eats memory kills the runner, not the machine. */
  memoryLimitMb: number;
  watchTools: boolean;
  /** A run paused longer than this is ended (LOOPSCOPE_PAUSE_TIMEOUT_MS; 15 min by default). */
  pauseTimeoutMs?: number;
  onSpanStart?: (span: SpanStartEvent) => void;
  onRunTrace?: (runId: string, traceId: string) => void;
  onStatus?: (status: RunnerStatus) => void;
  onPause?: (runId: string, pause: PauseInfo) => void;
  onPauseEnded?: (runId: string, pauseId: string) => void;
}

export interface StepCommandResult {
  ok: boolean;
  /** Rules the decision breaks (refused unless forced; warnings when forced). */
  problems?: string[];
  message?: string;
}

type StepCommand =
  | { type: 'pause-decision'; runId: string; pauseId: string; decision: PauseDecision }
  | { type: 'set-mode'; runId: string; mode: RunMode }
  | { type: 'stop'; runId: string };

interface PendingGenerate {
  runId: string;
  traceIds: Set<string>;
  resolve: (result: GenerateResult) => void;
}

/** Keeps the child's environment free of the server's own settings (NODE_ENV, Next's internals, PORT). */
function runnerEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(NEXT_|__NEXT|TURBOPACK)/.test(key) || ['NODE_ENV', 'PORT', 'GENKIT_ENV', 'NODE_OPTIONS'].includes(key)) continue;
    environment[key] = value;
  }
  return { ...environment, ...extra } as NodeJS.ProcessEnv;
}

/**
 * Starts and watches the runner child process. Whatever a tool does — throw, hang, exit,
 * busy-loop, eat memory — the worst outcome is a failed run and a fresh runner.
 */
export class RunnerSupervisor {
  private child?: ChildProcess;
  private readonly pending = new Map<string, PendingGenerate>();
  private readonly pendingCommands = new Map<string, (result: StepCommandResult) => void>();
  private readyWaiters: (() => void)[] = [];
  private heartbeat?: NodeJS.Timeout;
  private lastPong = 0;
  private watcher?: FSWatcher;
  private watchTimer?: NodeJS.Timeout;
  private stopped = false;
  private quickExits = 0;
  private startedAt = 0;
  private requestCounter = 0;
  private exitReason?: string;
  status: RunnerStatus = { state: 'stopped', tools: [], models: [], scenarios: [], problems: [], restarts: 0 };

  constructor(private readonly options: RunnerSupervisorOptions) {}

  start(): void {
    this.stopped = false;
    if (this.child) return;
    if (this.options.watchTools && !this.watcher) this.watchTools();
    this.spawnRunner();
    if (!this.heartbeat) {
      // Several pings per timeout, so a healthy runner is never judged on one late pong.
      const interval = Math.max(50, Math.min(1_000, this.options.heartbeatTimeoutMs / 4));
      this.heartbeat = setInterval(() => this.checkHeartbeat(), interval);
      this.heartbeat.unref();
    }
  }

  private setStatus(patch: Partial<RunnerStatus>): void {
    this.status = { ...this.status, ...patch };
    this.options.onStatus?.(this.status);
  }

  private spawnRunner(): void {
    const script = path.join(this.options.projectDir, 'lib', 'runtime', 'runner-main.ts');
    // node + --import tsx (not the tsx CLI): the pid we hold is the runner's own, and it
    // exits on IPC disconnect even if the server is SIGKILLed (NEXT-NOTES.md).
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${this.options.memoryLimitMb}`, '--import', 'tsx', /* turbopackIgnore: true */ script],
      {
        cwd: this.options.projectDir,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: runnerEnvironment({
          LOOPSCOPE_OTLP_ENDPOINT: this.options.otlpEndpoint,
          LOOPSCOPE_TOKEN: this.options.token,
          LOOPSCOPE_TOOLS_DIR: this.options.toolsDir,
          LOOPSCOPE_TOOL_TIMEOUT_MS: String(this.options.toolTimeoutMs),
          ...(this.options.pauseTimeoutMs ? { LOOPSCOPE_PAUSE_TIMEOUT_MS: String(this.options.pauseTimeoutMs) } : {}),
        }),
      },
    );
    this.child = child;
    this.startedAt = Date.now();
    this.exitReason = undefined;
    this.lastPong = Date.now();
    this.setStatus({ state: this.status.restarts > 0 ? 'restarting' : 'starting', pid: child.pid });
    child.on('message', (message) => this.onMessage(child, message as RunnerEvent));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    child.on('error', (error) => {
      this.exitReason = `the runner could not start: ${error.message}`;
    });
  }

  private onMessage(child: ChildProcess, event: RunnerEvent): void {
    if (child !== this.child) return;
    switch (event.type) {
      case 'ready':
        this.quickExits = 0;
        this.setStatus({ state: 'ready', pid: event.pid, tools: event.tools, models: event.models, scenarios: event.scenarios, problems: event.problems });
        for (const waiter of this.readyWaiters.splice(0)) waiter();
        break;
      case 'pong':
        this.lastPong = Date.now();
        break;
      case 'span-starts':
        for (const span of event.spans) this.options.onSpanStart?.(span);
        break;
      case 'run-trace': {
        this.pending.get(event.requestId)?.traceIds.add(event.traceId);
        this.options.onRunTrace?.(event.runId, event.traceId);
        break;
      }
      case 'paused':
        this.options.onPause?.(event.runId, event.pause);
        break;
      case 'pause-ended':
        this.options.onPauseEnded?.(event.runId, event.pauseId);
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
        pending.resolve(event.type === 'generate-result' ? { traceIds: event.traceIds, rootSpan: event.rootSpan, outcome: event.outcome, failure: event.failure } : { traceIds: event.traceIds, report: event.report, failure: event.failure });
        break;
      }
    }
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    this.child = undefined;
    const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
    const reason = this.exitReason ?? `The runner process ${how} during the run`;
    for (const [requestId, pending] of this.pending) {
      this.pending.delete(requestId);
      pending.resolve({
        traceIds: [...pending.traceIds],
        failure: {
          message: this.exitReason
            ? `${this.exitReason} The run was stopped.`
            : `${reason} — a tool may have called process.exit, crashed or run out of memory. ` +
              'Spans of finished steps were kept; a fresh runner has been started.',
          status: 'UNAVAILABLE',
        },
      });
    }
    for (const [requestId, resolve] of this.pendingCommands) {
      this.pendingCommands.delete(requestId);
      resolve({ ok: false, message: 'The runner exited before it answered.' });
    }
    if (this.stopped) {
      this.setStatus({ state: 'stopped', pid: undefined });
      return;
    }
    // A runner that dies at once (a syntax error in runner code) is retried with backoff.
    this.quickExits = Date.now() - this.startedAt < 2_000 ? this.quickExits + 1 : 0;
    const delay = Math.min(10_000, this.quickExits === 0 ? 0 : 250 * 2 ** this.quickExits);
    this.setStatus({ state: 'restarting', pid: undefined, restarts: this.status.restarts + 1, lastRestartReason: reason });
    setTimeout(() => {
      if (!this.stopped && !this.child) this.spawnRunner();
    }, delay).unref();
  }

  private checkHeartbeat(): void {
    const child = this.child;
    if (!child || !child.connected) return;
    // Loading genkit and tools/ blocks the event loop in chunks (slower on a loaded machine):
    // a starting runner gets three times the heartbeat limit before it is judged stuck.
    const limit = this.status.state === 'ready' ? this.options.heartbeatTimeoutMs : this.options.heartbeatTimeoutMs * 3;
    if (Date.now() - this.lastPong > limit) {
      const seconds = Math.round(limit / 100) / 10;
      this.exitReason =
        this.status.state === 'ready'
          ? `The runner stopped answering for ${seconds} s (a tool may be stuck in a busy loop), so it was killed.`
          : `The runner stopped answering for ${seconds} s while loading tools/ (a tool module may be stuck at import), so it was killed.`;
      child.kill('SIGKILL');
      return;
    }
    child.send({ type: 'ping', sentAt: Date.now() }, () => undefined);
  }

  private watchTools(): void {
    try {
      this.watcher = watch(this.options.toolsDir, { recursive: true }, (_event, file) => {
        clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => this.restart(`tools/${file ?? ''} changed`), 250);
      });
      this.watcher.on('error', () => undefined);
    } catch {
      // No tools folder yet: nothing to watch; the runner reports it as a problem.
    }
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

  /** Runs one generate call in the runner. Never rejects: failures come back as data. */
  generate(command: Omit<GenerateCommand, 'type' | 'requestId'>): Promise<GenerateResult> {
    return this.request({ type: 'generate', ...command });
  }

  /** Replays a recording in the runner (a fresh genkit instance); its spans are captured as the run's. */
  replay(command: Omit<ReplayCommand, 'type' | 'requestId'>): Promise<GenerateResult> {
    return this.request({ type: 'replay', ...command });
  }

  private async request(command: Omit<GenerateCommand, 'requestId'> | Omit<ReplayCommand, 'requestId'>): Promise<GenerateResult> {
    if (!(await this.whenReady())) {
      return { traceIds: [], failure: { message: 'The runner did not become ready within 30 s.', status: 'UNAVAILABLE' } };
    }
    const child = this.child;
    if (!child?.connected) return { traceIds: [], failure: { message: 'The runner is restarting; try again.', status: 'UNAVAILABLE' } };
    const requestId = `${command.runId}:${++this.requestCounter}`;
    return new Promise((resolve) => {
      this.pending.set(requestId, { runId: command.runId, traceIds: new Set(), resolve });
      child.send({ ...command, requestId }, (error) => {
        if (!error) return;
        this.pending.delete(requestId);
        resolve({ traceIds: [], failure: { message: `Could not reach the runner: ${error.message}`, status: 'UNAVAILABLE' } });
      });
    });
  }

  /** Sends a step command (decision, mode change, stop) to the runner and waits for its answer. */
  command(command: StepCommand): Promise<StepCommandResult> {
    const child = this.child;
    if (!child?.connected) return Promise.resolve({ ok: false, message: 'The runner is not running.' });
    const requestId = `command:${++this.requestCounter}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingCommands.delete(requestId);
        resolve({ ok: false, message: 'The runner did not answer within 10 s.' });
      }, 10_000);
      timer.unref();
      this.pendingCommands.set(requestId, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      child.send({ ...command, requestId }, (error) => {
        if (!error) return;
        this.pendingCommands.delete(requestId);
        clearTimeout(timer);
        resolve({ ok: false, message: `Could not reach the runner: ${error.message}` });
      });
    });
  }

  /** Replaces the runner (tools changed, or the user asked). In-flight runs fail with the reason. */
  restart(reason: string): void {
    this.exitReason = `The runner was restarted because ${reason}.`;
    this.setStatus({ lastRestartReason: reason });
    if (this.child) this.child.kill('SIGKILL');
    else if (!this.stopped) this.spawnRunner();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    const child = this.child;
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    });
  }
}
