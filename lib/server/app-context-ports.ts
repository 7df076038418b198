/**
 * The server's long-lived parts, as the services see them: every part is a port a service may take
 * (`Pick<AppContext, 'store' | 'runs'>`), so a service depends on the parts it uses, never on the
 * composition root that builds them (app-context.ts). Types only: importing this file runs nothing.
 */
import type { TraceStore } from '../store/trace-store';
import type { RunWatchers } from './live/run-watchers';
import type { SavedGraphCache } from './traces/saved-graph-cache';
import type { EventBus } from './live/event-bus';
import type { LiveRunGraphs } from './live/live-run-graphs';
import type { RunRegistry } from './services/run-registry';
import type { RunnerSupervisor } from './runners/runner-supervisor';
import type { GoRunnerService } from '../runtimes/genkit-go/run/go-runner-service';
import type { ServerConfig } from './http/server-config';
import type { OtlpForwarder } from './ingest/otlp-forwarder';
import type { IngestGate } from './ingest/ingest-gate';
import type { ProviderConfig } from './services/provider-config';
import type { Attachment } from './attach/attach-service';
import type { AiSdkApps } from './attach/ai-sdk-apps';
import type { AttachedSteps } from './attach/attached-steps';

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
  /** The AI SDK apps using `loopscope/ai-sdk`: their modes, their calls as runs, the answers they wait for. */
  aiSdkApps: AiSdkApps;
}

