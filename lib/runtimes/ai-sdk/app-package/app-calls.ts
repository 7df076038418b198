/**
 * The app's `generateText` / `streamText` calls as Loopscope runs: a telemetry integration of the
 * AI SDK (registered by `loopscopeTelemetry()`, before @ai-sdk/otel's) that sees each call start
 * and end — the SDK tells every integration, with the call's id, its tools and its messages — and
 * runs each model call and tool execution inside the call's context, which is how the step
 * middleware and the wrapped tools, set up once for every call, find the run they are in.
 *
 * A call starts as a run (`start` at the AI SDK app door): a new one in the mode the developer
 * chose for the app, or — when its messages carry the answer `answerInLoopscope` got for a run
 * that waits — that run going on, its root span linked to the paused call. It ends as that run's
 * outcome (`end`), after its spans were exported, without holding the app's call back.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { trace } from '@opentelemetry/api';
import type { ModelMessage, Telemetry, ToolSet } from 'ai';
import { AI_SDK_DIALECT_ID } from '../read/dialect-id';
import { AiSdkStartResponseSchema, type AiSdkAppTool, type AiSdkEndRequest, type AiSdkStartRequest } from '../../../contract/attach-ai-sdk';
import { errorMessage } from '../../../errors';
import { checkAiSdkDecision } from '../run/check-ai-sdk-decision';
import { pendingCalls, type AiSdkPendingCall } from '../run/pending-calls';
import type { SpanRef } from '../../../runner/answer-link';
import { RemoteStepper } from '../../../runner/remote-stepper';
import type { AppConnection } from './app-connection';
import { ANSWERS_CALL_ATTRIBUTE, type AppSpanRecorder } from './app-span-recorder';
import { AnsweredRuns } from './answered-runs';
import { jsonSchemaOf } from './json-schema-of';

/** The operations that are loops of model calls and tools: the ones Loopscope runs and steps. */
const LOOP_OPERATIONS: Record<string, AiSdkStartRequest['operation']> = { 'ai.generateText': 'generateText', 'ai.streamText': 'streamText' };
/** Ended calls remembered, for `answerInLoopscope` to find the run its result belongs to. */
const MAX_ENDED = 200;

/** One call of the app, from its start to its end (and after, while its run may wait for an answer). */
export interface AppCall {
  callId: string;
  tools: ToolSet;
  /** The run it is, once Loopscope answered (`undefined`: it is not one — no credential, or Loopscope refused or did not answer). */
  registered: Promise<{ runId: string; token: string } | undefined>;
  stepper?: RemoteStepper;
  traceIds: Set<string>;
  /** Its end told to Loopscope (spans exported first). */
  ended?: Promise<void>;
  /** What the call left waiting when it ended. */
  waiting: AiSdkPendingCall[];
  /** The app asks Loopscope for the answer (`answerInLoopscope`): its end says so. */
  appWaits?: boolean;
}

const currentCall = new AsyncLocalStorage<AppCall>();

/** The stepper of the call the caller runs in, if that call is a stepped run (what the step middleware and the wrapped tools ask). */
export function currentStepper(): RemoteStepper | undefined {
  return currentCall.getStore()?.stepper;
}

/** The active span's trace (the SDK runs each model call and tool in its span's context). */
function activeTraceId(): string | undefined {
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  return traceId && !/^0+$/.test(traceId) ? traceId : undefined;
}

/** The tools a call offers, as the step panel and the answer rules need them. */
async function describeTools(tools: ToolSet): Promise<AiSdkAppTool[]> {
  return Promise.all(
    Object.entries(tools).map(async ([name, tool]) => {
      const inputSchema = await jsonSchemaOf(tool.inputSchema);
      const outputSchema = await jsonSchemaOf((tool as { outputSchema?: unknown }).outputSchema);
      const needsApproval = (tool as { needsApproval?: unknown }).needsApproval;
      return {
        name,
        // A description may be a function of the call's context: only a written one is shown.
        ...(typeof tool.description === 'string' && tool.description ? { description: tool.description.slice(0, 10_000) } : {}),
        ...(inputSchema !== undefined ? { inputSchema } : {}),
        ...(outputSchema !== undefined ? { outputSchema } : {}),
        handedBack: tool.execute === undefined,
        ...(needsApproval !== undefined && needsApproval !== false ? { needsApproval: true } : {}),
      };
    }),
  );
}

/**
 * The telemetry integration: one per process (`loopscopeTelemetry()`), registered before
 * @ai-sdk/otel's `OpenTelemetry`, so its `onStart` runs first and the answer link is known when
 * the call's root span starts (`enrichSpan`).
 */
export class AppCalls implements Telemetry {
  private readonly calls = new Map<string, AppCall>();
  /** Ended calls that left calls waiting, by the tool call ids they left waiting. */
  private readonly endedByToolCall = new Map<string, AppCall>();
  /** Ends being told to Loopscope (flushed at exit and by `flush()`). */
  private readonly ending = new Set<Promise<void>>();
  /** Root-span links of calls that answer a paused one, by call id (read by `enrichSpan`). */
  private readonly links = new Map<string, SpanRef>();
  readonly answered = new AnsweredRuns();
  /** Where Loopscope is (answer-in-loopscope.ts asks there). */
  readonly connection: AppConnection;

  constructor(
    private readonly options: {
      connection: AppConnection;
      recorder: AppSpanRecorder;
      /** Exports the spans that ended (before a call's end is told: its run is complete with its trace). */
      flushSpans: () => Promise<void>;
    },
  ) {
    this.connection = options.connection;
  }

  onStart(event: { callId: string; operationId: string; tools?: ToolSet; messages?: readonly ModelMessage[]; provider?: string; modelId?: string; functionId?: string }): Promise<void> | void {
    const operation = LOOP_OPERATIONS[event.operationId];
    if (!operation) return;
    // Synchronously, before @ai-sdk/otel starts the call's root span: whether the call answers a run that waits.
    const answers = this.answered.take(event.messages ?? []);
    if (answers?.link) this.links.set(event.callId, answers.link);
    const call: AppCall = { callId: event.callId, tools: event.tools ?? {}, traceIds: new Set(), waiting: [], registered: Promise.resolve(undefined) };
    this.calls.set(event.callId, call);
    const credential = this.options.connection.credential;
    if (!credential) {
      this.options.connection.sayOnce(
        'no-credential',
        `spans go to ${this.options.connection.tracesUrl}; the calls are not stepped: no LOOPSCOPE_APP_SECRET (start the app with \`loopscope start -- <command>\`) or LOOPSCOPE_TOKEN (Loopscope's token, from its start banner).`,
      );
      return;
    }
    call.registered = this.register({ call, credential, start: { operation, event, answers: answers?.runId } });
    // The SDK waits for onStart before its first model call: the call is a run (or known not to be) by then.
    return call.registered.then(() => undefined);
  }

  private async register(options: {
    call: AppCall;
    credential: string;
    start: { operation: AiSdkStartRequest['operation']; event: { provider?: string; modelId?: string; functionId?: string }; answers?: string };
  }): Promise<{ runId: string; token: string } | undefined> {
    const { call, credential, start } = options;
    const { connection } = this.options;
    try {
      const request: AiSdkStartRequest = {
        app: connection.app,
        runtime: AI_SDK_DIALECT_ID,
        operation: start.operation,
        model: { provider: (start.event.provider ?? '').slice(0, 200), modelId: (start.event.modelId ?? '').slice(0, 200) },
        ...(start.event.functionId ? { functionId: start.event.functionId.slice(0, 200) } : {}),
        tools: await describeTools(call.tools),
        ...(start.answers ? { answers: { runId: start.answers } } : {}),
      };
      const run = await connection.post({ op: 'start', body: request, schema: AiSdkStartResponseSchema, token: credential });
      call.stepper = new RemoteStepper({
        config: { runId: run.runId, url: connection.url, token: run.token },
        check: ({ pause, decision }) => checkAiSdkDecision({ tools: call.tools, pause, decision }),
        whereabouts: () => {
          const traceId = activeTraceId();
          return { ...(traceId ? { traceId } : {}), openSpans: this.options.recorder.openSpans(traceId) };
        },
      });
      return { runId: run.runId, token: run.token };
    } catch (error) {
      connection.sayFailure('start', error);
      return undefined;
    }
  }

  /** @ai-sdk/otel's `enrichSpan`: the root span of a call that answers a paused one starts with the paused call's root (app-span-recorder.ts links them). */
  readonly enrichSpan = (options: { spanType: string; callId: string }): Record<string, string> | undefined => {
    if (options.spanType !== 'operation') return undefined;
    const link = this.links.get(options.callId);
    if (!link) return undefined;
    this.links.delete(options.callId);
    return { [ANSWERS_CALL_ATTRIBUTE]: `${link.traceId}:${link.spanId}` };
  };

  /** Runs the model call in the call's context (the step middleware finds its stepper there); notes the call's trace. */
  executeLanguageModelCall<T>(options: { callId: string; execute: () => PromiseLike<T> }): PromiseLike<T> {
    return this.inCall(options);
  }

  /** Runs the tool in the call's context (the wrapped tool finds its stepper there); notes the call's trace. */
  executeTool<T>(options: { callId: string; execute: () => PromiseLike<T> }): PromiseLike<T> {
    return this.inCall(options);
  }

  private inCall<T>({ callId, execute }: { callId: string; execute: () => PromiseLike<T> }): PromiseLike<T> {
    const call = this.calls.get(callId);
    if (!call) return execute();
    const traceId = activeTraceId();
    if (traceId) call.traceIds.add(traceId);
    return currentCall.run(call, execute);
  }

  onEnd(event: { callId: string; content?: unknown; finishReason?: unknown; text?: unknown }): void {
    const call = this.calls.get(event.callId);
    if (!call) return;
    // The final step's content, as `generateText`'s result has it: approvals to give, tools handed back.
    const waiting = Array.isArray(event.content) && typeof event.finishReason === 'string' ? pendingCalls({ content: event.content, finishReason: event.finishReason } as Parameters<typeof pendingCalls>[0]) : [];
    call.waiting = waiting;
    for (const pending of waiting) this.endedByToolCall.set(pending.toolCallId, call);
    while (this.endedByToolCall.size > MAX_ENDED) this.endedByToolCall.delete(this.endedByToolCall.keys().next().value as string);
    this.finish(call, {
      outcome: {
        finishReason: typeof event.finishReason === 'string' ? event.finishReason : 'unknown',
        text: typeof event.text === 'string' ? event.text : '',
        waiting: waiting.map((pending) => ({ kind: pending.kind, toolName: pending.toolName, toolCallId: pending.toolCallId, input: pending.input })),
      },
    });
  }

  onError(event: unknown): void {
    const { callId, error } = (event ?? {}) as { callId?: string; error?: unknown };
    const call = callId ? this.calls.get(callId) : undefined;
    if (!call) return;
    this.finish(call, { failure: { message: errorMessage(error).slice(0, 100_000), ...(error instanceof Error ? { name: error.name.slice(0, 200) } : {}) } });
  }

  /** A stream the app gave up on (streamText's abort). */
  onAbort(event: { callId: string }): void {
    const call = this.calls.get(event.callId);
    if (call) this.finish(call, { failure: { message: 'The stream was aborted.', name: 'AbortError' } });
  }

  /** Tells Loopscope how the call ended once its spans are out; the app's call does not wait for it. */
  private finish(call: AppCall, end: Pick<AiSdkEndRequest, 'outcome' | 'failure'>): void {
    this.calls.delete(call.callId);
    const ended = (async () => {
      const run = await call.registered;
      // @ai-sdk/otel ends the call's root span in its own onEnd, which runs beside this one: export after it.
      await new Promise((resolve) => setImmediate(resolve));
      await this.options.flushSpans().catch((error: unknown) => this.options.connection.sayOnce('export', `the spans could not be sent to ${this.options.connection.tracesUrl}: ${errorMessage(error)}`));
      if (!run) return;
      // Read now, after the export: an app that asks for the answer has asked by then.
      const request: AiSdkEndRequest = { runId: run.runId, traceIds: [...call.traceIds], ...end, ...(call.appWaits ? { appWaits: true } : {}) };
      await this.options.connection.post({ op: 'end', body: request, schema: undefined, token: run.token }).catch((error: unknown) => this.options.connection.sayFailure('end', error));
    })();
    call.ended = ended;
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
  }

  /** The ended call that left this tool call waiting, if it is remembered. */
  endedCallOf(toolCallId: string): AppCall | undefined {
    return this.endedByToolCall.get(toolCallId);
  }

  /** The root span of the call's trace, when the app started it (what the answering call links to). */
  rootOf(call: AppCall): SpanRef | undefined {
    const [traceId] = call.traceIds;
    return traceId ? this.options.recorder.rootOf(traceId) : undefined;
  }

  /** Whether an ended call is still being told to Loopscope. */
  pending(): boolean {
    return this.ending.size > 0;
  }

  /** Waits until every ended call was told to Loopscope. */
  async flush(): Promise<void> {
    await Promise.all([...this.ending]);
  }
}
