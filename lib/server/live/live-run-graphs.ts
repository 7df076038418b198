import type { RunGraphEvent } from '../../contract/live-events';
import type { RunSession } from '../../contract/run-session';
import type { RunGraph } from '../../graph/run-graph';
import type { Span } from '../../spans/span';
import type { EventBus } from './event-bus';

/** A run's graph as the `graph` event carries it. */
export type RunGraphUpdate = RunGraphEvent<RunGraph>;

export interface LiveRunGraphsOptions {
  bus: EventBus;
  /** The run as the registry holds it now (undefined once forgotten). */
  run: (runId: string) => RunSession | undefined;
  /** Everything the run's graph is drawn from: its traces so far (open spans included) and the recording a resume answers. */
  loadSpans: (run: RunSession) => Promise<Span[]>;
  /** The graph builder (lib/graph's `buildRunGraph`). */
  build: (spans: Span[]) => RunGraph;
  /** The runs whose graphs also draw this run's spans: the interrupted runs it answered from the workbench. */
  answeredRuns?: (runId: string) => string[];
  /** Whether a page watches the run now: only watched runs are rebuilt as their spans arrive. */
  isWatched: (runId: string) => boolean;
  /** At most one build per run this often; a slow build waits twice its own time before the next. */
  intervalMs?: number;
  /** A build failed (a trace file turned unreadable): logged, the last graph stays. */
  onError?: (runId: string, error: unknown) => void;
}

interface RunGraphState {
  version: number;
  latest?: RunGraphUpdate;
  /** Something arrived since `latest` was built. */
  dirty: boolean;
  timer?: NodeJS.Timeout;
  building?: Promise<void>;
  lastBuildAt: number;
  lastBuildMs: number;
  /** What the last `run` event said, to tell a graph change from a pause or a mode change. */
  seen?: { status: RunSession['status']; traces: number; answers: number };
}

const DEFAULT_INTERVAL_MS = 50;
/** Graphs kept for runs nobody watches (a page that comes back is served without a build). */
const KEPT_GRAPHS = 32;
/** Above this many runs, the state of runs the registry forgot is dropped. */
const PRUNE_ABOVE = 256;

/**
 * Builds each watched run's Graph JSON on the server as its spans arrive and publishes it on
 * the bus as a `graph` event with a version that grows per run: at most once per interval per
 * run (a burst of span batches is one build), and at once when the run stops running (its
 * final graph). A page that connects late asks for the current graph (`current`), built then
 * if anything changed. Runs nobody watches are not rebuilt — their graph is built when a page
 * asks — so capture costs nothing more without a viewer.
 */
export class LiveRunGraphs {
  private readonly states = new Map<string, RunGraphState>();
  /** Which run a trace belongs to (a span batch names only its trace). */
  private readonly runOfTrace = new Map<string, string>();
  private readonly intervalMs: number;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: LiveRunGraphsOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.unsubscribe = options.bus.subscribe((event) => {
      if (event.type === 'span-start') {
        this.runOfTrace.set(event.span.traceId, event.span.runId);
        this.changed(event.span.runId);
      } else if (event.type === 'spans') {
        const runId = this.runOfTrace.get(event.traceId);
        if (runId) this.changed(runId);
      } else if (event.type === 'run') {
        this.runChanged(event.run);
      }
    });
  }

  /**
   * The run's graph as it stands: the last one published if nothing arrived since, else built
   * now (and published, so every page of the run gets it). Undefined for an unknown run.
   */
  async current(runId: string): Promise<RunGraphUpdate | undefined> {
    if (!this.options.run(runId)) return undefined;
    const state = this.stateOf(runId);
    if (state.building) await state.building;
    if (!state.latest || state.dirty) await this.build(runId);
    return state.latest;
  }

  /** Stops listening and cancels pending builds (tests, shutdown). */
  close(): void {
    this.unsubscribe();
    for (const state of this.states.values()) clearTimeout(state.timer);
  }

  private runChanged(run: RunSession): void {
    if (this.states.size > PRUNE_ABOVE) this.prune();
    for (const traceId of run.traceIds) this.runOfTrace.set(traceId, run.runId);
    const state = this.states.get(run.runId);
    const seen = { status: run.status, traces: run.traceIds.length, answers: run.answeredBy?.length ?? 0 };
    const previous = state?.seen;
    if (state) state.seen = seen;
    else this.stateOf(run.runId).seen = seen;
    // Pauses, modes and runner changes do not change the graph; new traces, answers and a new status may.
    if (previous && previous.status === seen.status && previous.traces === seen.traces && previous.answers === seen.answers) return;
    // The run stopped running: its last spans are stored (the runner flushes them before it
    // answers), so the final graph is built now, not after the interval.
    this.changed(run.runId, { now: previous !== undefined && run.status !== 'running' });
  }

  private changed(runId: string, options: { now?: boolean } = {}): void {
    // A workbench answer is drawn in the graph of the run it answered too.
    for (const id of [runId, ...(this.options.answeredRuns?.(runId) ?? [])]) {
      const state = this.stateOf(id);
      state.dirty = true;
      if (this.options.isWatched(id)) this.schedule(id, options.now ?? false);
    }
  }

  private schedule(runId: string, now: boolean): void {
    const state = this.stateOf(runId);
    if (state.building) return; // the build in flight checks `dirty` when it ends
    const interval = Math.max(this.intervalMs, 2 * state.lastBuildMs);
    const delay = now ? 0 : Math.max(0, state.lastBuildAt + interval - Date.now());
    if (state.timer) {
      if (!now) return;
      clearTimeout(state.timer);
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.build(runId);
    }, delay);
  }

  private build(runId: string): Promise<void> {
    const state = this.stateOf(runId);
    if (state.building) return state.building;
    clearTimeout(state.timer);
    state.timer = undefined;
    state.building = (async () => {
      const run = this.options.run(runId);
      if (!run) return;
      state.dirty = false;
      const started = Date.now();
      try {
        const graph = this.options.build(await this.options.loadSpans(run));
        state.version += 1;
        state.latest = { type: 'graph', runId, version: state.version, graph };
        this.options.bus.publish(state.latest);
      } catch (error) {
        this.options.onError?.(runId, error);
      } finally {
        state.lastBuildAt = Date.now();
        state.lastBuildMs = state.lastBuildAt - started;
      }
    })().finally(() => {
      state.building = undefined;
      if (state.dirty && this.options.isWatched(runId)) this.schedule(runId, false);
      this.forgetUnwatched();
    });
    return state.building;
  }

  private stateOf(runId: string): RunGraphState {
    let state = this.states.get(runId);
    if (!state) {
      state = { version: 0, dirty: true, lastBuildAt: 0, lastBuildMs: 0 };
      this.states.set(runId, state);
    }
    return state;
  }

  /** Forgets the runs the registry forgot, and their traces. */
  private prune(): void {
    for (const [runId, state] of this.states) {
      if (this.options.run(runId) || state.building || state.timer) continue;
      this.states.delete(runId);
    }
    for (const [traceId, runId] of this.runOfTrace) if (!this.states.has(runId)) this.runOfTrace.delete(traceId);
  }

  /** Drops the graphs of the oldest runs that nobody watches, beyond KEPT_GRAPHS (their next page builds anew). */
  private forgetUnwatched(): void {
    const kept = [...this.states.entries()].filter(([, state]) => state.latest);
    for (const [runId, state] of kept.slice(0, Math.max(0, kept.length - KEPT_GRAPHS))) {
      if (this.options.isWatched(runId) || state.building || state.timer) continue;
      state.latest = undefined;
      state.dirty = true;
    }
  }
}
