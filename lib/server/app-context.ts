import path from 'node:path';
import type { AppContext } from './app-context-ports';
import { buildRunGraph } from '../graph/build-run-graph';
import { summarizeCapturedTrace } from '../graph/trace-sessions';
import { TraceStore } from '../store/trace-store';
import { RunWatchers } from './live/run-watchers';
import { SavedGraphCache } from './traces/saved-graph-cache';
import { EventBus } from './live/event-bus';
import { LiveRunGraphs } from './live/live-run-graphs';
import { liveRunSpans } from './live/live-run-spans';
import { RunRegistry } from './services/run-registry';
import { ingestRunnerSpans } from './services/run-service';
import { RunnerSupervisor } from './runners/runner-supervisor';
import { GoRunnerService } from '../runtimes/genkit-go/run/go-runner-service';
import { goStepEvents } from './runners/go-step-events';
import { readForwarding, readServerConfig } from './http/server-config';
import { OtlpForwarder } from './ingest/otlp-forwarder';
import { IngestGate } from './ingest/ingest-gate';
import { ProviderConfig } from './services/provider-config';
import { errorMessage } from '../errors';
import { runnerPoolStatus } from '../contract/runner-status';
import { heldAppContext } from './app-context-holder';
import { createAttachment } from './attach/attach-service';
import { AttachedSteps } from './attach/attached-steps';
import { AiSdkApps } from './attach/ai-sdk-apps';
import { sendStepCommand } from './runners/step-command';

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
  const aiSdkApps = new AiSdkApps({ runs, steps: attachedSteps });
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
  context = { config, store, bus, runs, supervisor, savedGraphs, watchers, liveGraphs, goRunner, ingestGate: new IngestGate(), providers, attachment, attachedSteps, aiSdkApps, ...(forwarder ? { forwarder } : {}) };
  return context;
}

export type { AppContext };

/**
 * The process-wide context. Kept on globalThis because Next loads route handlers,
 * the proxy and instrumentation as separate bundles that share only the global object.
 */
export function getAppContext(): AppContext {
  return heldAppContext(createAppContext);
}
