import path from 'node:path';
import { buildRunGraph } from '../graph/build-run-graph';
import { summarizeCapturedTrace } from '../graph/trace-sessions';
import { TraceStore } from '../trace/trace-store';
import { RunWatchers } from './run-watchers';
import { SavedGraphCache } from './saved-graph-cache';
import { EventBus } from './event-bus';
import { LiveRunGraphs } from './live-run-graphs';
import { liveRunSpans } from './live-run-spans';
import { RunRegistry } from './run-registry';
import { ingestRunnerSpans } from './run-service';
import { RunnerSupervisor } from './runner-supervisor';
import { GoRunnerService } from './go-runner-service';
import { goStepEvents } from './go-step-events';
import { readForwarding, readServerConfig, type ServerConfig } from './server-config';
import { OtlpForwarder } from './otlp-forwarder';
import { IngestGate } from './ingest-gate';
import { ProviderConfig } from './provider-config';
import { errorMessage } from '../errors';
import { runnerPoolStatus } from '../contract/runner-status';
import { heldAppContext } from './app-context-holder';
import { createAttachment, type Attachment } from './attach/attach-service';
import { AttachedSteps } from './attach/attached-steps';
import { sendStepCommand } from './step-command';

/** The server's long-lived parts, one set per process. */
export interface AppContext {
  config: ServerConfig;
  store: TraceStore;
  bus: EventBus;
  runs: RunRegistry;
  supervisor: RunnerSupervisor;
  savedGraphs: SavedGraphCache;
  watchers: RunWatchers;
  /** Each watched run's Graph JSON, rebuilt as its spans arrive and published on the bus. */
  liveGraphs: LiveRunGraphs;
  /** The genkit Go runner (go/runner), built and started on first use. */
  goRunner: GoRunnerService;
  /** Forwards every accepted OTLP export upstream (LOOPSCOPE_FORWARD_OTLP), when set. */
  forwarder?: OtlpForwarder;
  /** Bounds the bytes the receiver decodes and stores at once (past it: 503 + Retry-After). */
  ingestGate: IngestGate;
  /** The real-model setting (OpenAI-compatible endpoint, Gemini): what runs may use instead of the scripted model. */
  providers: ProviderConfig;
  /** Attached genkit apps: the runtimes found in the watched `.genkit/runtimes/`, and the app `loopscope start -- <cmd>` runs. */
  attachment: Attachment;
  /** The pauses of stepped generates running in attached apps (their step middleware asks here). */
  attachedSteps: AttachedSteps;
}

/** The forwarder LOOPSCOPE_FORWARD_OTLP asks for; a bad value was refused at start (scripts/start.js), here it only disables forwarding. */
function createForwarder(port: number): OtlpForwarder | undefined {
  try {
    const forwarding = readForwarding(process.env, port);
    return forwarding ? new OtlpForwarder(forwarding) : undefined;
  } catch (error) {
    console.error(`loopscope: not forwarding spans: ${errorMessage(error)}`);
    return undefined;
  }
}

function createAppContext(): AppContext {
  const config = readServerConfig();
  const bus = new EventBus();
  const store = new TraceStore({
    dataDir: config.dataDir,
    savedDir: config.savedDir,
    // The index also keeps each trace's interrupt/resume keys, so a trace page finds the
    // traces of its session (the original and its resumes) without reading them all.
    summarize: summarizeCapturedTrace,
    // The server commits all the time: SQLite's checkpoints run in a worker thread, off its event loop.
    backgroundCheckpoints: { projectDir: config.projectDir },
  });
  const runs = new RunRegistry((run) => bus.publish({ type: 'run', run }));
  // Filled in below: the supervisor stores its runners' spans (sent over IPC) as the receiver stores an app's.
  let context: AppContext | undefined;
  // genkit registers provider plugins when a runner starts: a new endpoint means new runners.
  const providers = new ProviderConfig({ environment: process.env, onEndpointChanged: (reason) => supervisor.replaceRunners(reason) });
  const supervisor = new RunnerSupervisor({
    projectDir: config.projectDir,
    toolsDir: config.toolsDir,
    toolTimeoutMs: config.toolTimeoutMs,
    heartbeatTimeoutMs: config.heartbeatTimeoutMs,
    memoryLimitMb: config.runnerMemoryMb,
    pauseTimeoutMs: config.pauseTimeoutMs,
    maxRunners: config.maxRunners,
    runnerWaitMs: config.runnerWaitMs,
    watchTools: true,
    ingestSpans: (spans) => (context ? ingestRunnerSpans(context, spans) : Promise.resolve()),
    onSpanStart: (span) => {
      runs.recordSpanStart(span);
      bus.publish({ type: 'span-start', span });
    },
    onRunTrace: (runId, traceId) => runs.addTrace(runId, traceId),
    onStatus: (status) => bus.publish({ type: 'runner', status: runnerPoolStatus(status) }),
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onRunRunner: (runId, info) => runs.setRunner(runId, info),
    runnerEnvironment: () => providers.runnerEnvironment(),
  });
  const attachedSteps = new AttachedSteps({
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onTrace: (runId, traceId) => runs.addTrace(runId, traceId),
    // As a runner's span starts: the live graph draws the app's open generate, and the pause on it.
    onSpanStart: (span) => {
      runs.recordSpanStart(span);
      bus.publish({ type: 'span-start', span });
    },
  });
  // A paused run whose page was closed is stopped after a grace period, not held until the pause limit.
  const watchers = new RunWatchers({
    graceMs: config.abandonedPauseMs,
    onAbandoned: (runId) => {
      const run = runs.get(runId);
      if (run?.status !== 'running' || run.pauses.length === 0) return;
      // Stopped for the user who left it: it ends `stopped`, as by the Stop button.
      runs.markStopping(runId);
      void sendStepCommand({ goRunner, attachedSteps, supervisor }, { type: 'stop', runId }).then((result) => result.ok || runs.markStopping(runId, false));
    },
  });
  const savedGraphs = new SavedGraphCache({ store, savedDir: config.savedDir, cacheDir: path.join(config.dataDir, 'graph-cache') });
  const liveGraphs = new LiveRunGraphs({
    bus,
    run: (runId) => runs.get(runId),
    loadSpans: (run) => liveRunSpans({ store, runs }, run),
    build: (spans) => buildRunGraph(spans),
    answeredRuns: (runId) => runs.answeredBy(runId),
    isWatched: (runId) => watchers.watching(runId) > 0,
    onError: (runId, error) => console.error(`loopscope: the graph of run ${runId} could not be built`, error),
  });
  const goRunner = new GoRunnerService({
    projectDir: config.projectDir,
    dataDir: config.dataDir,
    otlpEndpoint: `http://127.0.0.1:${config.port}/v1/traces`,
    token: config.token,
    watchSources: true,
    // A stepped Go run: its pauses and open spans, as the node runners report theirs.
    ...goStepEvents({ runs, bus }),
  });
  const forwarder = createForwarder(config.port);
  // The app (LOOPSCOPE_APP_COMMAND) dials in to our port: scripts/start.js starts it once the server listens.
  const attachment = createAttachment({ environment: process.env, port: config.port, startApp: false });
  context = { config, store, bus, runs, supervisor, savedGraphs, watchers, liveGraphs, goRunner, ingestGate: new IngestGate(), providers, attachment, attachedSteps, ...(forwarder ? { forwarder } : {}) };
  return context;
}

/**
 * The process-wide context. Kept on globalThis because Next loads route handlers,
 * the proxy and instrumentation as separate bundles that share only the global object.
 */
export function getAppContext(): AppContext {
  return heldAppContext(createAppContext);
}
