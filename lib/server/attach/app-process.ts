/**
 * The app `loopscope start -- <cmd>` runs: a supervised child process in its own process group
 * (so `npm run dev` and the node it starts stop together), its output shown in the terminal with
 * an `[app]` prefix and kept (last lines) for the page, started again with a growing delay when it
 * exits, killed with the server. Like genkit's ProcessManager, minus the shell: the command is
 * an argv, never a string a shell would interpret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { AppLogLine, AppProcessStatus } from '../../contract/runtimes';

const MAX_LOG_LINES = 400;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 15_000;
/** An app that ran this long before it exited was fine: its next restart waits the first delay again. */
const HEALTHY_UPTIME_MS = 30_000;
const KILL_GRACE_MS = 3_000;

export interface AppProcessOptions {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** Each output line (also kept in `status().logs`); default: printed to this process's stdout/stderr. */
  onLine?: (line: AppLogLine) => void;
  /** Restart the app when it exits (default true). */
  restartOnExit?: boolean;
}

export class AppProcess {
  private child: ChildProcess | undefined;
  private state: AppProcessStatus['state'] = 'stopped';
  private restarts = 0;
  private lastExit: AppProcessStatus['lastExit'];
  private readonly logs: AppLogLine[] = [];
  private stopping = false;
  private startedAt = 0;
  private restartDelayMs = FIRST_RESTART_DELAY_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly killOnExit = () => this.killGroup('SIGTERM');

  constructor(private readonly options: AppProcessOptions) {
    if (options.command.length === 0) throw new Error('The app command is empty.');
  }

  /** Starts the app (once; later starts are restarts). */
  start(): void {
    this.stopping = false;
    process.once('exit', this.killOnExit);
    this.spawnChild();
  }

  private spawnChild(): void {
    const [command, ...args] = this.options.command;
    this.state = 'starting';
    this.startedAt = Date.now();
    const child = spawn(command, args, { cwd: this.options.cwd, env: this.options.env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    this.note(`started ${JSON.stringify(this.options.command.join(' '))} in ${this.options.cwd}${child.pid ? ` (pid ${child.pid})` : ''}`);
    child.once('spawn', () => {
      if (this.child === child) this.state = 'running';
    });
    this.pipeLines(child, 'stdout');
    this.pipeLines(child, 'stderr');
    child.once('error', (error) => this.note(`could not start the app: ${error.message}`));
    child.once('close', (code, signal) => this.exited({ child, code, signal }));
  }

  private pipeLines(child: ChildProcess, stream: 'stdout' | 'stderr'): void {
    let pending = '';
    const source = stream === 'stdout' ? child.stdout : child.stderr;
    source?.setEncoding('utf8');
    source?.on('data', (chunk: string) => {
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const text of lines) this.line({ stream, text, time: Date.now() });
    });
    source?.on('end', () => {
      if (pending) this.line({ stream, text: pending, time: Date.now() });
      pending = '';
    });
  }

  private line(line: AppLogLine): void {
    this.logs.push(line);
    if (this.logs.length > MAX_LOG_LINES) this.logs.splice(0, this.logs.length - MAX_LOG_LINES);
    if (this.options.onLine) this.options.onLine(line);
    else (line.stream === 'stderr' ? process.stderr : process.stdout).write(`[app] ${line.text}\n`);
  }

  private note(text: string): void {
    this.line({ stream: 'loopscope', text: `loopscope: ${text}`, time: Date.now() });
  }

  private exited(options: { child: ChildProcess; code: number | null; signal: NodeJS.Signals | null }): void {
    if (this.child !== options.child) return;
    this.child = undefined;
    this.lastExit = { code: options.code, signal: options.signal, time: Date.now() };
    const how = options.signal ? `was killed by ${options.signal}` : `exited with code ${options.code}`;
    if (this.stopping || this.options.restartOnExit === false) {
      this.state = this.stopping ? 'stopped' : 'exited';
      this.note(`the app ${how}.`);
      return;
    }
    if (Date.now() - this.startedAt > HEALTHY_UPTIME_MS) this.restartDelayMs = FIRST_RESTART_DELAY_MS;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(this.restartDelayMs * 2, MAX_RESTART_DELAY_MS);
    this.state = 'restarting';
    this.note(`the app ${how}; starting it again in ${delay} ms.`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.restarts += 1;
      this.spawnChild();
    }, delay);
    this.restartTimer.unref();
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      // The whole group: `npm run dev` → sh → node would otherwise leave the node behind.
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Stops the app (its whole process group): SIGTERM, then SIGKILL after a grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    process.removeListener('exit', this.killOnExit);
    const child = this.child;
    if (!child) {
      this.state = 'stopped';
      return;
    }
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.killGroup('SIGTERM');
    const timer = setTimeout(() => this.killGroup('SIGKILL'), KILL_GRACE_MS);
    await closed;
    clearTimeout(timer);
  }

  /** Stops the app and starts it again (counted as a restart). */
  async restart(): Promise<void> {
    await this.stop();
    this.stopping = false;
    process.once('exit', this.killOnExit);
    this.restarts += 1;
    this.restartDelayMs = FIRST_RESTART_DELAY_MS;
    this.spawnChild();
  }

  /** The pid of the app's process (the command's own, the leader of its group). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  status(): AppProcessStatus {
    return {
      command: [...this.options.command],
      cwd: this.options.cwd,
      state: this.state,
      ...(this.child?.pid ? { pid: this.child.pid } : {}),
      restarts: this.restarts,
      ...(this.lastExit ? { lastExit: { ...this.lastExit } } : {}),
      logs: this.logs.map((line) => ({ ...line })),
    };
  }
}
