/**
 * HTTP calls to a genkit reflection server (loopback only: the URL comes from
 * `loopbackReflectionUrl`): the `http` ReflectionTransport, for a runtime Loopscope found by its
 * runtime file. Loopscope's own pages reach it only through Loopscope's guarded routes, which name
 * an action from the runtime's own list — but genkit's server itself checks neither Host nor
 * Origin, so a page that rebinds a name to 127.0.0.1 can call it directly (docs/security-model.md).
 * Every answer is read within the size and depth limits of any JSON Loopscope reads
 * (read-reflection-answer.ts).
 */
import { LoopscopeError } from '../../errors';
import { REFLECTION_API_SPEC_VERSION } from '../../runtimes/genkit-reflection/runtime-file';
import { readReflectionAnswer, readReflectionJson } from './read-reflection-answer';
import type { ReflectionTransport, RunActionAnswer } from './reflection-transport';

const HEALTH_TIMEOUT_MS = 2_000;
const LIST_TIMEOUT_MS = 5_000;
/** A flow may call a real model for a long time; past this the run is reported as timed out. */
export const RUN_ACTION_TIMEOUT_MS = 120_000;

/** True when the runtime answers its health check (genkit's `GET /api/__health`). */
export async function reflectionHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/__health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Tells a runtime where to send its traces (genkit's `POST /api/notify`, what the genkit CLI sends
 * each runtime it finds). genkit JS honours it only when its GENKIT_TELEMETRY_SERVER is unset.
 */
export async function notifyReflection(options: { url: string; telemetryServerUrl: string }): Promise<void> {
  const response = await fetch(`${options.url}/api/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ telemetryServerUrl: options.telemetryServerUrl, reflectionApiSpecVersion: REFLECTION_API_SPEC_VERSION }),
    signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
  });
  await response.body?.cancel();
}

/**
 * The raw `GET /api/actions` answer.
 * @throws LoopscopeError FAILED_PRECONDITION for an answer over the size or depth limit or not JSON, UNAVAILABLE when it broke off; a plain Error for a refused list (its status).
 */
export async function fetchReflectionActions(url: string): Promise<unknown> {
  const response = await fetch(`${url}/api/actions`, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`GET /api/actions answered ${response.status}`);
  }
  return readReflectionJson({ response, what: 'GET /api/actions' });
}

/** genkit's `GET /api/values?type=…` (registered values: `middleware`, `defaultModel`), by name. */
export async function fetchReflectionValues(options: { url: string; type: 'middleware' | 'defaultModel' }): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${options.url}/api/values?type=${options.type}`, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  } catch (error) {
    throw new LoopscopeError('UNAVAILABLE', `The app's reflection server did not answer (${(error as Error).message}); is the app still running?`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new LoopscopeError('UNAVAILABLE', `The app answered GET /api/values with ${response.status}.`);
  }
  const values = await readReflectionJson({ response, what: `GET /api/values?type=${options.type}` });
  return typeof values === 'object' && values !== null ? (values as Record<string, unknown>) : {};
}

/**
 * `POST /api/runAction {key, input}`: the parsed answer and the trace id header genkit sets as
 * soon as the action's root span starts.
 * @throws LoopscopeError UNAVAILABLE when the runtime cannot be reached, DEADLINE_EXCEEDED past the time limit,
 *   FAILED_PRECONDITION for an answer over the size or depth limit.
 */
export async function runReflectionAction(options: { url: string; key: string; input: unknown; context?: Record<string, unknown>; timeoutMs?: number }): Promise<RunActionAnswer> {
  let response: Response;
  try {
    response = await fetch(`${options.url}/api/runAction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // `context`: the action context genkit runs the action in (a flow's generates see it too).
      body: JSON.stringify({ key: options.key, input: options.input, ...(options.context ? { context: options.context } : {}) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? RUN_ACTION_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new LoopscopeError('DEADLINE_EXCEEDED', `The app did not finish ${options.key} within ${(options.timeoutMs ?? RUN_ACTION_TIMEOUT_MS) / 1000} s.`, { cause: error });
    throw new LoopscopeError('UNAVAILABLE', `The app's reflection server did not answer (${(error as Error).message}); is the app still running?`, { cause: error });
  }
  const headerTraceId = response.headers.get('x-genkit-trace-id') ?? undefined;
  let answer: Awaited<ReturnType<typeof readReflectionAnswer>>;
  try {
    answer = await readReflectionAnswer({ response, what: `POST /api/runAction (${options.key})` });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new LoopscopeError('DEADLINE_EXCEEDED', `The app did not finish ${options.key} within ${(options.timeoutMs ?? RUN_ACTION_TIMEOUT_MS) / 1000} s.`, { cause: error });
    throw error;
  }
  // genkit answers 404 with plain text for an unknown action.
  const body = answer.json.ok ? answer.json.value : { error: { code: response.status === 404 ? 5 : 13, message: answer.text.slice(0, 500) } };
  return { body, headerTraceId };
}

/** The runtime whose reflection server is at `url`, as a ReflectionTransport. */
export function httpReflection(url: string): ReflectionTransport {
  return {
    kind: 'http',
    where: url,
    healthy: () => reflectionHealthy(url),
    notify: (telemetryServerUrl) => notifyReflection({ url, telemetryServerUrl }),
    listActions: () => fetchReflectionActions(url),
    listValues: (type) => fetchReflectionValues({ url, type }),
    runAction: (options) => runReflectionAction({ url, ...options }),
  };
}
