import type { RunnerProcess } from './runner-process';

/** The runner a run was given; `sharedWith` lists the paused runs it shares the runner with. */
export interface RunnerAssignment {
  process: RunnerProcess;
  sharedWith?: string[];
}

/** A run's runner, or why it has none (`status`: the failure's status, UNAVAILABLE unless it says). */
export type AcquireResult = { assignment: RunnerAssignment } | { failure: string; status?: string };

export interface RunnerPoolOptions {
  /** At most this many runner processes at once (LOOPSCOPE_MAX_RUNNERS). */
  capacity: number;
  /** A run waits this long for a runner before it fails (LOOPSCOPE_RUNNER_WAIT_MS). */
  waitMs: number;
  createProcess: () => RunnerProcess;
  /** A run is waiting for a runner, and why (said again when the reason changes). */
  onWaiting: (runId: string, reason: string) => void;
  /** Something the status shows changed. */
  onChange: () => void;
}

interface Waiter {
  runId: string;
  resolve: (result: AcquireResult) => void;
  timer: NodeJS.Timeout;
  told?: string;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Idle runners kept warm: the one sequential runs keep reusing, and the spare next to it. */
const IDLE_KEPT = 2;

/**
 * The runner processes and who holds which. Each request (a generate, resume, replay or
 * fork of a run) gets a runner of its own: an idle warm one when there is one (so a run
 * does not wait for the ~1.5 s cold start), else a new one while the pool is below its
 * capacity; a fresh spare is started whenever the last idle one is taken. A run never
 * shares a runner with a run whose code is executing, so one tool that kills its runner
 * fails only its own run.
 *
 * Beyond capacity a request shares a runner whose runs are all paused at a step (no code
 * of theirs runs; they may hold a runner for up to LOOPSCOPE_PAUSE_TIMEOUT_MS, and must not
 * block new runs), and the run says so; otherwise it waits in line, in the open, for at
 * most `waitMs`.
 */
export class RunnerPool {
  readonly processes = new Set<RunnerProcess>();
  private readonly leases = new Map<RunnerProcess, number>();
  private readonly lastUsed = new Map<RunnerProcess, number>();
  private readonly waiters: Waiter[] = [];
  private quickExits = 0;
  private spawnAllowedAt = 0;
  private spawnTimer?: NodeJS.Timeout;
  private stopped = true;

  constructor(private readonly options: RunnerPoolOptions) {}

  get capacity(): number {
    return this.options.capacity;
  }

  /** Runs waiting in line for a runner. */
  get waiting(): number {
    return this.waiters.length;
  }

  start(): void {
    this.stopped = false;
    this.dispatch();
  }

  /** True for a runner that takes new runs: not dead, not being replaced. */
  isUsable(process: RunnerProcess): boolean {
    return process.state !== 'exited' && !process.retired && !process.retiring;
  }

  leasesOf(process: RunnerProcess): number {
    return this.leases.get(process) ?? 0;
  }

  /** The idle warm runner the next run would take (the most recently used first). */
  idleRunner(): RunnerProcess | undefined {
    let best: RunnerProcess | undefined;
    for (const process of this.processes) {
      if (process.state !== 'ready' || !this.isUsable(process) || this.leasesOf(process) > 0) continue;
      if (!best || (this.lastUsed.get(process) ?? 0) > (this.lastUsed.get(best) ?? 0)) best = process;
    }
    return best;
  }

  /** Gives the run a runner, or says why it could not within `waitMs`. */
  acquire(runId: string): Promise<AcquireResult> {
    if (this.stopped) return Promise.resolve({ failure: 'Loopscope is shutting down: no runner takes new runs.' });
    return new Promise((resolve) => {
      const waiter: Waiter = {
        runId,
        resolve,
        timer: setTimeout(() => this.giveUp(waiter), this.options.waitMs),
      };
      waiter.timer.unref();
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  /** Takes a run out of the line for a runner (stopped before it got one): it fails with `failure`. False when it was not waiting. */
  withdraw({ runId, failure, status }: { runId: string; failure: string; status: string }): boolean {
    const index = this.waiters.findIndex((waiter) => waiter.runId === runId);
    if (index < 0) return false;
    const [waiter] = this.waiters.splice(index, 1);
    clearTimeout(waiter.timer);
    waiter.resolve({ failure, status });
    this.options.onChange();
    return true;
  }

  /** The request on `process` is over. */
  release(process: RunnerProcess): void {
    if (!this.processes.has(process)) return;
    this.leases.set(process, Math.max(0, this.leasesOf(process) - 1));
    this.lastUsed.set(process, Date.now());
    if (process.retiring && this.leasesOf(process) === 0) process.retire();
    this.dispatch();
  }

  /** A run paused: a waiting run may now share its runner. */
  runPaused(): void {
    this.dispatch();
  }

  processReady(): void {
    this.quickExits = 0;
    this.dispatch();
  }

  /**
   * A runner exited. One that dies before it ever became ready (a syntax error in runner
   * code, a tools/ module that kills the process at import) is replaced with a growing
   * delay, so a broken runner is not restarted in a tight loop.
   */
  processExited(process: RunnerProcess): void {
    this.processes.delete(process);
    this.leases.delete(process);
    this.lastUsed.delete(process);
    if (!process.retired && process.readyAt === undefined) {
      this.quickExits += 1;
      this.spawnAllowedAt = Date.now() + Math.min(10_000, 250 * 2 ** this.quickExits);
    }
    this.dispatch();
  }

  /** tools/ changed: idle and starting runners are replaced now, busy ones once their runs end. */
  replaceAll(): void {
    for (const process of this.processes) {
      if (this.leasesOf(process) > 0) process.retiring = true;
      else process.retire();
    }
    this.dispatch();
  }

  /** Kills every runner now (the user asked for a restart); runs in flight fail with `reason`. */
  killAll(reason: string): void {
    for (const process of this.processes) {
      process.retired = true;
      process.kill(reason);
    }
    this.dispatch();
  }

  /** Calls `check` on every live runner (the heartbeat). */
  forEachLive(check: (process: RunnerProcess) => void): void {
    for (const process of this.processes) if (process.state !== 'exited') check(process);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.spawnTimer);
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve({ failure: 'Loopscope is shutting down: no runner takes new runs.' });
    }
    await Promise.all([...this.processes].map((process) => process.stop()));
  }

  /** Hands runners to waiting runs, starts what is missing, lets go of what is too much. */
  private dispatch(): void {
    if (this.stopped) return;
    for (let idle = this.idleRunner(); idle && this.waiters.length > 0; idle = this.idleRunner()) this.assign({ waiter: this.waiters.shift()!, process: idle });

    const live = () => [...this.processes].filter((process) => process.state !== 'exited').length;
    const starting = () => [...this.processes].filter((process) => process.state === 'starting' && this.isUsable(process)).length;
    while (this.waiters.length > starting() && live() < this.options.capacity && this.spawn());
    // Runs that no runner (ready or starting) will serve: share one whose runs are all paused.
    for (let index = starting(); index < this.waiters.length; ) {
      const shared = this.pausedRunner();
      if (!shared) break;
      this.assign({ waiter: this.waiters.splice(index, 1)[0], process: shared, sharedWith: shared.runIds });
    }
    const startingNow = starting();
    this.waiters.forEach((waiter, index) => {
      const reason = index < startingNow ? 'waiting for a runner to start' : `waiting for a runner: ${this.busyWords('are busy')} (LOOPSCOPE_MAX_RUNNERS=${this.options.capacity})`;
      if (waiter.told === reason) return;
      waiter.told = reason;
      this.options.onWaiting(waiter.runId, reason);
    });

    // A spare is always ready or on its way, so the next run does not wait for a cold start.
    // At rest the pool tops up to two idle runners, one cold start at a time: started while
    // nothing runs, a spare's ~1.5 s of CPU does not slow a run down (two cores), and the
    // next sequential run finds the spare still there, so it starts none.
    const usable = () => [...this.processes].filter((process) => this.isUsable(process));
    const spares = usable().filter((process) => this.leasesOf(process) === 0).length;
    const atRest = this.waiters.length === 0 && [...this.processes].every((process) => this.leasesOf(process) === 0);
    if (live() < this.options.capacity && (spares === 0 || (atRest && spares < IDLE_KEPT && starting() === 0))) this.spawn();
    const idle = usable()
      .filter((process) => process.state === 'ready' && this.leasesOf(process) === 0)
      .sort((a, b) => (this.lastUsed.get(b) ?? 0) - (this.lastUsed.get(a) ?? 0));
    for (const extra of idle.slice(IDLE_KEPT)) extra.retire();
    this.options.onChange();
  }

  /** A ready runner whose every run is paused at a step (the one with the fewest runs). */
  private pausedRunner(): RunnerProcess | undefined {
    let best: RunnerProcess | undefined;
    for (const process of this.processes) {
      if (process.state !== 'ready' || !this.isUsable(process) || !process.onlyPausedRuns) continue;
      if (!best || this.leasesOf(process) < this.leasesOf(best)) best = process;
    }
    return best;
  }

  private assign({ waiter, process, sharedWith }: { waiter: Waiter; process: RunnerProcess; sharedWith?: string[] }): void {
    clearTimeout(waiter.timer);
    this.leases.set(process, this.leasesOf(process) + 1);
    this.lastUsed.set(process, Date.now());
    waiter.resolve({ assignment: { process, ...(sharedWith ? { sharedWith } : {}) } });
  }

  /** Starts a runner, unless a runner that died at once asks for a pause first. */
  private spawn(): boolean {
    const wait = this.spawnAllowedAt - Date.now();
    if (wait > 0) {
      if (!this.spawnTimer) {
        this.spawnTimer = setTimeout(() => {
          this.spawnTimer = undefined;
          this.dispatch();
        }, wait);
        this.spawnTimer.unref();
      }
      return false;
    }
    const process = this.options.createProcess();
    this.processes.add(process);
    return true;
  }

  private busyWords(verb: 'are busy' | 'stayed busy'): string {
    const singular = verb === 'are busy' ? 'is busy' : verb;
    return this.options.capacity === 1 ? `the only runner ${singular}` : `all ${this.options.capacity} runners ${verb}`;
  }

  private giveUp(waiter: Waiter): void {
    const position = this.waiters.indexOf(waiter);
    if (position < 0) return;
    this.waiters.splice(position, 1);
    const seconds = Math.round(this.options.waitMs / 100) / 10;
    const ready = [...this.processes].some((process) => process.state === 'ready' && this.isUsable(process));
    const busy = [...this.processes].flatMap((process) => process.runIds);
    waiter.resolve({
      failure: ready
        ? `${capitalize(this.busyWords('stayed busy'))} for ${seconds} s (runs ${busy.join(', ')}); raise LOOPSCOPE_MAX_RUNNERS or stop a paused run.`
        : `The runner did not become ready within ${seconds} s.`,
    });
    this.options.onChange();
  }
}
