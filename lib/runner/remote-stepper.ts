/**
 * A stepper whose pauses the Loopscope server holds (lib/contract/attach-step.ts), for a run
 * whose loop runs in the developer's own app: genkit's step middleware (`loopscope/genkit`,
 * lib/runtimes/genkit-js/app-plugin) and the AI SDK's hooks (`loopscope/ai-sdk`, lib/runtimes/ai-sdk/app-package)
 * ask it as the built-in runner's hooks ask their RunStepper. Every hook asks the server, which
 * knows the run's mode (the page may change it while the run goes on); at a pause it waits for
 * the developer's decision, checks it by the runtime's own rules in the app, and says what it
 * found.
 */
import {
  AttachHookResponseSchema,
  AttachWaitResponseSchema,
  type AttachAckRequest,
  type AttachHookRequest,
  type AttachStepConfig,
} from '../contract/attach-step';
import { errorMessage } from '../errors';
import { StepError } from './run-stepper';
import type { PauseDecision, PauseInfo } from './step-protocol';
import type { z } from 'zod';

/** Where the app stands when it reaches a step: the trace it runs in, and the spans it has open (not yet exported). */
export type StepWhereabouts = Pick<AttachHookRequest, 'traceId' | 'openSpan' | 'openSpans'>;

/** The pause as the hook request carries it. */
function hookPause(info: Omit<PauseInfo, 'pauseId' | 'pausedAt'>): AttachHookRequest['pause'] {
  const actions = info.actions ?? [];
  if (info.kind === 'model') return { kind: 'model', modelTurn: info.modelTurn ?? 1, actions };
  return { kind: 'tool', tool: { name: info.tool?.name ?? '', ref: info.tool?.ref, input: info.tool?.input }, actions };
}

/** The message of a refusal's body (`{error: {message}}`), or the body itself. */
function refusalMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text;
  }
}

/**
 * POSTs one request to a Loopscope door with a bearer credential and reads its answer.
 * @throws StepError UNAVAILABLE (Loopscope did not answer), NOT_FOUND / FAILED_PRECONDITION (it refused, with its message).
 */
export async function postToDoor<T>(options: { url: string; token: string; body: unknown; schema: z.ZodType<T> | undefined; what: string }): Promise<T> {
  const { url, token, body, schema, what } = options;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (error) {
    const unanswered = new StepError(`Loopscope's ${what} at ${url} did not answer (${errorMessage(error)}): is Loopscope still running?`, 'UNAVAILABLE');
    unanswered.cause = error;
    throw unanswered;
  }
  const text = await response.text();
  if (!response.ok) throw new StepError(`Loopscope refused the ${what} (${response.status}): ${refusalMessage(text)}`, response.status === 404 ? 'NOT_FOUND' : 'FAILED_PRECONDITION');
  return schema ? schema.parse(JSON.parse(text)) : (undefined as T);
}

export class RemoteStepper {
  /** Fires when the server says the run was stopped: a hook that asks after that fails at once. */
  readonly abort = new AbortController();
  private modelCalls = 0;

  constructor(
    private readonly options: {
      config: AttachStepConfig;
      /** The problems of a decision at a pause, by the runtime's own rules and the app's schemas (none: it can be applied). */
      check: (options: { pause: PauseInfo; decision: PauseDecision }) => Promise<string[]>;
      /** Where the app stands as it reaches a step. */
      whereabouts: () => StepWhereabouts;
    },
  ) {}

  nextModelTurn(): number {
    this.modelCalls += 1;
    return this.modelCalls;
  }

  // The server decides by the run's mode, which the page may change while the run goes on.
  wantsModelPause(): boolean {
    return true;
  }

  wantsToolPause(): boolean {
    return true;
  }

  async pause(info: Omit<PauseInfo, 'pauseId' | 'pausedAt'>): Promise<PauseDecision> {
    const { runId } = this.options.config;
    const opened = await this.post({ op: 'hook', body: { runId, ...this.options.whereabouts(), pause: hookPause(info) }, schema: AttachHookResponseSchema });
    if ('decision' in opened) return opened.decision;
    if ('stopped' in opened) throw this.stopped(opened.stopped);
    const pause: PauseInfo = { ...info, pauseId: opened.pauseId, pausedAt: Date.now() };
    for (;;) {
      const waited = await this.post({ op: 'wait', body: { runId, pauseId: pause.pauseId }, schema: AttachWaitResponseSchema });
      if ('stopped' in waited) throw this.stopped(waited.stopped);
      if ('waiting' in waited) continue;
      const { decision } = waited;
      const problems = await this.options.check({ pause, decision });
      const applied = problems.length === 0 || ('force' in decision && decision.force === true);
      const ack: AttachAckRequest = { runId, pauseId: pause.pauseId, problems, applied };
      await this.post({ op: 'ack', body: ack, schema: undefined });
      // A refused decision leaves the pause open: the developer decides again.
      if (applied) return decision;
    }
  }

  private stopped(message: string): StepError {
    const error = new StepError(message, 'CANCELLED');
    if (!this.abort.signal.aborted) this.abort.abort(error);
    return error;
  }

  private post<T>({ op, body, schema }: { op: 'hook' | 'wait' | 'ack'; body: unknown; schema: z.ZodType<T> | undefined }): Promise<T> {
    return postToDoor({ url: `${this.options.config.url}/attach/step/${op}`, token: this.options.config.token, body, schema, what: `step ${op}` });
  }
}
