/**
 * Attached apps behind the routes: the runtimes found (RuntimeRegistry), the app
 * `loopscope start -- <cmd>` supervises (AppProcess), running one of their actions, and which
 * attached runtime can run the answer to a paused call of an app's trace.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { RunActionRequest, RunActionResult, RuntimesResponse } from '../../contract/runtimes';
import { LoopscopeError } from '../../errors';
import { findAction } from '../../runtimes/genkit-reflection/reflection-actions';
import { readRunActionAnswer } from '../../runtimes/genkit-reflection/run-action-answer';
import { appEnvironment, telemetryServerUrl } from './app-environment';
import { AppProcess } from './app-process';
import { projectRootOf, RuntimeRegistry, type KnownRuntime } from './runtime-registry';
import { TraceArrivals } from './trace-arrivals';

/** How long a run waits for its trace's root span after the app answered (trace-arrivals.ts). */
const TRACE_ARRIVAL_TIMEOUT_MS = 5_000;

export interface Attachment {
  registry: RuntimeRegistry;
  /** The app started with Loopscope (`loopscope start -- <cmd>`), if any. */
  app?: AppProcess;
  /**
   * The reflection door's secret (reflection-door.ts): random per server start, given only to the
   * app in its GENKIT_REFLECTION_V2_SERVER URL, so nothing else can pose as an attached runtime.
   */
  reflectionSecret: string;
  /**
   * The AI SDK app door's secret (ai-sdk-door.ts): random per server start, given only to the app
   * `loopscope start -- <cmd>` starts (LOOPSCOPE_APP_SECRET), so that app may open runs.
   */
  appSecret: string;
  /** Root spans that arrived through the genkit telemetry door (a run waits for its own). */
  arrivals: TraceArrivals;
}

/** Set by `loopscope start` (lib/cli/start-command.ts) for the server it starts. */
export const ATTACH_ENVIRONMENT = {
  /** The app's argv, as JSON. */
  command: 'LOOPSCOPE_APP_COMMAND',
  /** The folder the app runs in (where `loopscope start` was called: INIT_CWD under npm). */
  cwd: 'LOOPSCOPE_APP_CWD',
  /** More folders whose project root's `.genkit/runtimes/` to watch, as a JSON array. */
  dirs: 'LOOPSCOPE_ATTACH_DIRS',
} as const;

const StringListSchema = z.array(z.string().min(1));

function readList(environment: NodeJS.ProcessEnv, name: string): string[] {
  const text = environment[name];
  if (!text) return [];
  const parsed = StringListSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new LoopscopeError('INVALID_ARGUMENT', `${name} must be a JSON array of strings.`);
  return parsed.data;
}

/**
 * The attachment the environment asks for: watch the project roots of the app's folder and of
 * LOOPSCOPE_ATTACH_DIRS, and start the app when LOOPSCOPE_APP_COMMAND is set.
 * @param options.startApp false to start the app later (`attachment.app.start()`): the app dials
 *   in to Loopscope's port as it starts (genkit Go panics when that fails), so the server that
 *   makes the attachment before it listens (scripts/start.js) starts the app once it does.
 */
export function createAttachment(options: { environment: NodeJS.ProcessEnv; port: number; startApp?: boolean }): Attachment {
  const { environment, port } = options;
  const command = readList(environment, ATTACH_ENVIRONMENT.command);
  const cwd = path.resolve(environment[ATTACH_ENVIRONMENT.cwd] ?? process.cwd());
  const dirs = [...(command.length > 0 || environment[ATTACH_ENVIRONMENT.cwd] ? [cwd] : []), ...readList(environment, ATTACH_ENVIRONMENT.dirs)];
  const projectDirs = [...new Set(dirs.map((dir) => projectRootOf(dir)))];
  const registry = new RuntimeRegistry({ projectDirs, telemetryServerUrl: telemetryServerUrl(port), dialedProjectDir: projectRootOf(cwd) });
  registry.start();
  const arrivals = new TraceArrivals();
  const reflectionSecret = randomBytes(24).toString('base64url');
  const appSecret = randomBytes(24).toString('base64url');
  if (command.length === 0) return { registry, arrivals, reflectionSecret, appSecret };
  const app = new AppProcess({ command, cwd, env: appEnvironment({ inherited: environment, port, reflectionSecret, appSecret }) });
  if (options.startApp !== false) app.start();
  return { registry, app, arrivals, reflectionSecret, appSecret };
}

/** `GET /api/runtimes`. */
export async function listRuntimes(attachment: Attachment): Promise<RuntimesResponse> {
  const runtimes = await Promise.all(attachment.registry.runtimes().map((runtime) => attachment.registry.describe(runtime)));
  return { runtimes, ...(attachment.app ? { app: attachment.app.status() } : {}), watching: attachment.registry.watching };
}

/** An attached runtime by id. @throws LoopscopeError NOT_FOUND naming the attached ones (or how to attach one). */
export function attachedRuntime(attachment: Attachment, runtimeId: string): KnownRuntime {
  const runtime = attachment.registry.get(runtimeId);
  if (runtime) return runtime;
  const ids = attachment.registry.runtimes().map((known) => known.id);
  throw new LoopscopeError(
    'NOT_FOUND',
    ids.length > 0
      ? `No attached runtime has the id "${runtimeId}" (attached: ${ids.join(', ')}); a restarted app gets a new id.`
      : `No runtime is attached: start your app with \`loopscope start -- <command>\` (or run it with GENKIT_ENV=dev in a folder Loopscope watches).`,
  );
}

/**
 * Runs one action of an attached runtime (a flow, a tool, a model, `/util/generate`) through its
 * reflection API. Its spans reach Loopscope through GENKIT_TELEMETRY_SERVER; genkit answers before
 * they all arrived, so this waits (at most 5 s) for the trace's root span: the trace is stored
 * when this returns.
 * @throws LoopscopeError NOT_FOUND for an unknown runtime or action, UNAVAILABLE when the app does not answer.
 */
export async function runInRuntime(options: { attachment: Attachment; request: RunActionRequest }): Promise<RunActionResult> {
  const { attachment, request } = options;
  const runtime = attachedRuntime(attachment, request.runtimeId);
  const { actions } = await attachment.registry.describe(runtime);
  const action = findAction(actions, request.action);
  if (!action) {
    const names = actions.filter((candidate) => ['flow', 'tool', 'model', 'prompt', 'util'].includes(candidate.type)).map((candidate) => candidate.key);
    throw new LoopscopeError('NOT_FOUND', `The runtime ${runtime.name} (${runtime.id}) has no action "${request.action}"; it has ${names.join(', ') || 'none'}.`);
  }
  const started = performance.now();
  const { body, headerTraceId } = await runtime.reflection.runAction({ key: action.key, input: request.input });
  const answer = readRunActionAnswer({ body, headerTraceId });
  const durationMs = Math.round(performance.now() - started);
  // genkit answers before its span exports are done: report the trace once its root is stored.
  const stored = answer.traceId ? await attachment.arrivals.rootArrived({ traceId: answer.traceId, timeoutMs: TRACE_ARRIVAL_TIMEOUT_MS }) : false;
  const note = answer.traceId && !stored ? `The trace's spans had not arrived ${TRACE_ARRIVAL_TIMEOUT_MS / 1000} s after the app answered: is the app sending them to Loopscope (GENKIT_TELEMETRY_SERVER)?` : undefined;
  return { runtimeId: runtime.id, action: action.key, ...answer, ...(note && !answer.note ? { note } : {}), durationMs };
}

/**
 * The attached runtime that defines a recorded model and the tools a resume would offer, or
 * undefined. A trace does not say which process recorded it (TraceData has no resource, and a
 * restarted app has a new id), so the app is found by what it defines: its model, its tools.
 */
export async function runtimeDefining(options: { attachment: Attachment; model: string; tools: readonly string[] }): Promise<{ runtime: KnownRuntime; missingTools: string[] } | undefined> {
  const { attachment, model, tools } = options;
  let best: { runtime: KnownRuntime; missingTools: string[] } | undefined;
  for (const runtime of attachment.registry.runtimes().reverse()) {
    const { actions } = await attachment.registry.describe(runtime);
    const keys = new Set(actions.map((action) => action.key));
    if (!keys.has(`/model/${model}`)) continue;
    // By name: genkit Go and Python list their tools as `/tool.v2/<name>` (reflection-actions.ts).
    const toolNames = new Set(actions.filter((action) => action.type === 'tool').map((action) => action.name));
    const missingTools = tools.filter((tool) => !toolNames.has(tool));
    if (!best || missingTools.length < best.missingTools.length) best = { runtime, missingTools };
  }
  return best;
}

/** Restarts the supervised app. @throws LoopscopeError FAILED_PRECONDITION when Loopscope was started without one. */
export async function restartApp(attachment: Attachment) {
  if (!attachment.app) throw new LoopscopeError('FAILED_PRECONDITION', 'Loopscope was started without an app: use `loopscope start -- <command>` to have it run and restart one.');
  await attachment.app.restart();
  return attachment.app.status();
}
