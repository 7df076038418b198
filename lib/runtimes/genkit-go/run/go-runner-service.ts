/**
 * The server's genkit Go runner (go/runner with tools/go/, lib/runtimes/genkit-go/run/go-runner.ts):
 * built with the real `go` toolchain on first use and after every change to go/ or tools/go/
 * (a compile error is a load problem naming file:line — genkit JS and the AI SDK keep working),
 * started once built, restarted when it dies. Its calls run side by side (a stepped call paused
 * for a person holds up no other); its spans reach the server's own `/v1/traces` like any
 * app's; a result arrives once its call's spans are exported.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { PauseInfo } from '../../../contract/pause';
import type { GenkitGoScenario } from '../../../contract/scenario';
import type { SpanStartEvent } from '../../../contract/span-start';
import { errorMessage } from '../../../errors';
import { GENKIT_GO_DIALECT_ID } from '../read/dialect-id';
import { buildGoRunner, startGoRunner, type GoGenerateCommand, type GoGenerateResult, type GoRunner, type GoStepCommand, type GoStepCommandResult, type GoToolInfo } from './go-runner';
import type { Recording } from '../../genkit-js/read/recording';
import { replayGoRecording, type GoReplayOptions } from '../replay/replay-go';
import { loadScenarios } from '../../../runner/scenario';
import { isGenkitGoScenario } from '../read/genkit-go-scenario';
import type { GenerateResult } from '../../../runner/run-requests';

export interface GoRunnerState {
  state: 'idle' | 'building' | 'ready' | 'failed';
  /** The runner process, once ready. */
  pid?: number;
  /** The compile error (file:line lines) or why the runner could not start. */
  problem?: string;
  tools: GoToolInfo[];
}

export interface GoRunnerServiceOptions {
  /** Loopscope's folder: go/runner and tools/go are there. */
  projectDir: string;
  /** Where the runner binary is built (the data folder: never inside an installed package). */
  dataDir: string;
  otlpEndpoint: string;
  token?: string;
  /** Rebuild when go/ or tools/go/ change (the server); off in tests. */
  watchSources?: boolean;
  /** A stepped Go run paused, went on, or started a span (the run registry and the live graphs hear of it). */
  onPause?: (runId: string, pause: PauseInfo) => void;
  onPauseEnded?: (runId: string, pauseId: string) => void;
  onSpanStart?: (span: SpanStartEvent) => void;
}

const REBUILD_DEBOUNCE_MS = 300;
/** An idle runner is pinged this often; one that does not answer within HEALTH_TIMEOUT_MS is killed (the next Go run starts a new one). */
const HEALTH_INTERVAL_MS = 15_000;
const HEALTH_TIMEOUT_MS = 5_000;

export class GoRunnerService {
  /** The runtime its calls are (scenario lists and tool lists name it). */
  readonly runtime = GENKIT_GO_DIALECT_ID;
  private runner?: GoRunner;
  private starting?: Promise<GoRunner>;
  /** The calls in flight: a rebuild stops the old runner once they are done. */
  private readonly calls = new Set<Promise<unknown>>();
  /** Runs with a call in flight, stepped or not (their step commands and Stop go to this runner). */
  private readonly heldRuns = new Map<string, number>();
  /** The runner process each held run's call went to: a runner being replaced still answers for the calls it holds. */
  private readonly runnerOfRun = new Map<string, GoRunner>();
  private watchers: FSWatcher[] = [];
  private rebuildTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private inFlight = 0;
  status: GoRunnerState = { state: 'idle', tools: [] };
  /** The scenarios as last read (a run's resume finds its scenario here). */
  private known = new Map<string, GenkitGoScenario>();

  constructor(private readonly options: GoRunnerServiceOptions) {
    if (options.watchSources) {
      for (const folder of [path.join(options.projectDir, 'go'), path.join(options.projectDir, 'tools', 'go')]) {
        try {
          this.watchers.push(watch(folder, { recursive: true }, (_event, file) => file && /\.(go|mod|sum)$/.test(String(file)) && this.scheduleRebuild()));
        } catch {
          // No Go folder: nothing to watch.
        }
      }
    }
  }

  /** The Go scenarios (tools/go/scenarios/) and the problems of their files. */
  async scenarios(): Promise<{ scenarios: GenkitGoScenario[]; problems: { file: string; message: string }[] }> {
    const loaded = await loadScenarios(path.join(this.options.projectDir, 'tools', 'go', 'scenarios'));
    const problems = loaded.problems.map((problem) => ({ ...problem, file: `go/scenarios/${problem.file}` }));
    const scenarios = loaded.scenarios.filter(isGenkitGoScenario);
    for (const other of loaded.scenarios.filter((scenario) => !isGenkitGoScenario(scenario))) {
      problems.push({ file: `go/scenarios/${other.name}.json`, message: 'a scenario in tools/go/scenarios/ must say "runtime": "genkit-go"' });
    }
    if (this.status.state === 'failed' && this.status.problem) problems.push({ file: 'go/runner', message: this.status.problem });
    this.known = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
    return { scenarios, problems };
  }

  /**
   * The Go scenario of that name, read now, or undefined. A scenario lives only in the file
   * named after it (loadScenarios), so when that file is missing — every run of a JS or AI SDK
   * scenario — the answer comes without reading the others: starting a run pays no directory scan.
   * That check is one synchronous stat (microseconds): an asynchronous one put a hop through
   * libuv's thread pool, ≈0.25 ms, on the way of every run (bench/capture-overhead.bench.ts).
   */
  async scenarioNamed(name: string): Promise<GenkitGoScenario | undefined> {
    if (path.basename(name) === name && !existsSync(path.join(this.options.projectDir, 'tools', 'go', 'scenarios', `${name}.json`))) return undefined;
    return (await this.scenarios()).scenarios.find((candidate) => candidate.name === name);
  }

  /** A Go scenario as last read by `scenarios()`, or undefined. */
  knownScenario(name: string): GenkitGoScenario | undefined {
    return this.known.get(name);
  }

  /** The Go tools as the runner describes them (their resume types), building and starting it if needed; undefined when it cannot start. */
  async tools(): Promise<GoToolInfo[] | undefined> {
    try {
      return (await this.ready()).tools;
    } catch {
      return undefined;
    }
  }

  /** Runs one generate (a scenario's first call, or a resume of `messages`) in the Go runner; stepped when it has a mode. */
  generate(command: GoGenerateCommand): Promise<GenerateResult> {
    const { runId } = command;
    if (runId) this.heldRuns.set(runId, (this.heldRuns.get(runId) ?? 0) + 1);
    const call = this.run(command).finally(() => {
      this.calls.delete(call);
      if (!runId) return;
      const left = (this.heldRuns.get(runId) ?? 1) - 1;
      if (left > 0) this.heldRuns.set(runId, left);
      else {
        this.heldRuns.delete(runId);
        this.runnerOfRun.delete(runId);
      }
    });
    this.calls.add(call);
    return call;
  }

  /** True while a call of this run is in flight here (stepped or not: Stop reaches either). */
  holdsRun(runId: string): boolean {
    return this.heldRuns.has(runId);
  }

  /** A decision or mode change for a stepped Go call in flight, or Stop for any Go call of the run. */
  async command(command: GoStepCommand): Promise<GoStepCommandResult> {
    const runner = this.holdsRun(command.runId) ? this.runnerOfRun.get(command.runId) : undefined;
    if (!runner || runner.exited) return { ok: false, message: `Run ${command.runId} is not running in the genkit Go runner.` };
    return runner.command(command);
  }

  /**
   * Replays a genkit Go recording in the Go runner, beside its other calls
   * (lib/runtimes/genkit-go/replay/replay-go.ts): the report and every trace the replay recorded.
   */
  replay(options: { recording: Recording } & Omit<GoReplayOptions, 'runner'>): Promise<GenerateResult> {
    const call = (async (): Promise<GenerateResult> => {
      let runner: GoRunner;
      try {
        runner = await this.ready();
      } catch (error) {
        return { traceIds: [], failure: { message: errorMessage(error), status: 'FAILED_PRECONDITION' } };
      }
      // A replay step leaves the command loop free (pings are answered), but it is a call in flight all the same.
      this.inFlight += 1;
      try {
        const { report, traceIds } = await replayGoRecording(options.recording, { ...options, runner });
        return { traceIds, report };
      } catch (error) {
        return { traceIds: [], failure: { message: errorMessage(error), status: 'INTERNAL' } };
      } finally {
        this.inFlight -= 1;
      }
    })().finally(() => this.calls.delete(call));
    this.calls.add(call);
    return call;
  }

  private async run(command: GoGenerateCommand): Promise<GenerateResult> {
    let runner: GoRunner;
    try {
      runner = await this.ready();
    } catch (error) {
      return { traceIds: [], failure: { message: errorMessage(error), status: 'FAILED_PRECONDITION' } };
    }
    this.inFlight += 1;
    if (command.runId) this.runnerOfRun.set(command.runId, runner);
    const result: GoGenerateResult = await runner.generate(command).finally(() => (this.inFlight -= 1));
    if (result.codeLeftRunning) this.replaceWhenIdle(runner);
    // The genkit runner's result shape: the run registry reads both alike.
    return {
      traceIds: result.traceIds ?? [],
      ...(result.rootSpan ? { rootSpan: result.rootSpan } : {}),
      ...(result.outcome ? { outcome: result.outcome } : {}),
      ...(result.failure ? { failure: result.failure } : {}),
    } as GenerateResult;
  }

  /** The running runner, built and started when there is none (or it died). */
  private ready(): Promise<GoRunner> {
    if (this.runner && !this.runner.exited) return Promise.resolve(this.runner);
    this.starting ??= this.buildAndStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async buildAndStart(): Promise<GoRunner> {
    this.status = { state: 'building', tools: [] };
    try {
      const binary = await buildGoRunner({ projectDir: this.options.projectDir, binary: path.join(this.options.dataDir, 'go-runner') });
      this.runner = await startGoRunner({
        binary,
        projectDir: this.options.projectDir,
        otlpEndpoint: this.options.otlpEndpoint,
        token: this.options.token,
        onStepLine: (line) => {
          if (line.type === 'paused') this.options.onPause?.(line.runId, line.pause);
          else if (line.type === 'pause-ended') this.options.onPauseEnded?.(line.runId, line.pauseId);
          else this.options.onSpanStart?.(line.span);
        },
      });
      this.status = { state: 'ready', tools: this.runner.tools, pid: this.runner.pid };
      this.watchHealth();
      return this.runner;
    } catch (error) {
      this.status = { state: 'failed', problem: errorMessage(error), tools: [] };
      throw error;
    }
  }

  /** Pings the runner while it is idle (a call in flight has its own limit); one that stops answering is killed and marked, and the next Go run starts a new one. */
  private watchHealth(): void {
    clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => {
      const runner = this.runner;
      if (!runner || runner.exited || this.inFlight > 0) return;
      void runner.ping(HEALTH_TIMEOUT_MS).then((alive) => {
        if (alive || this.runner !== runner) return;
        this.runner = undefined;
        this.status = { state: 'idle', problem: `The genkit Go runner did not answer a health check within ${HEALTH_TIMEOUT_MS / 1000} s: it was stopped (the next Go run starts a new one).`, tools: [] };
      });
    }, HEALTH_INTERVAL_MS);
    this.healthTimer.unref();
  }

  /**
   * A stopped call left a tool's goroutine running in `runner` (go/runner/stop.go): no new call
   * goes to it, and it is stopped once the calls in flight are done — never under them, so other
   * Go runs are not taken down. The next Go run starts a fresh runner.
   */
  private replaceWhenIdle(runner: GoRunner): void {
    if (this.runner !== runner) return;
    this.runner = undefined;
    this.status = { state: 'idle', tools: [] };
    void Promise.allSettled([...this.calls]).then(() => runner.stop());
  }

  private scheduleRebuild(): void {
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = setTimeout(() => {
      // The next generate rebuilds; the old runner finishes what it has.
      const old = this.runner;
      this.runner = undefined;
      this.status = { state: 'idle', tools: [] };
      void Promise.allSettled([...this.calls]).then(() => old?.stop());
    }, REBUILD_DEBOUNCE_MS);
  }

  async stop(): Promise<void> {
    clearTimeout(this.rebuildTimer);
    clearInterval(this.healthTimer);
    for (const watcher of this.watchers) watcher.close();
    await this.runner?.stop();
  }
}
