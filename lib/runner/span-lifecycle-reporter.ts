import { SpanStatusCode, type AttributeValue as OtelAttributeValue, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span as SdkSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runContext } from './run-context';
import { CLOSED_BY_ATTRIBUTE, TOOL_REF_ATTRIBUTE } from '../spans/loopscope-attributes';
import type { SpanStartEvent } from './runner-protocol';
import type { SpanOwner } from './runner-span-outbox';
import { claimToolRequest } from './tool-request-context';
import { GEN_AI, MODEL_OPERATIONS, TOOL_OPERATIONS } from '../runtimes/otel-genai/read/genai-attributes';
import { HAND_WRITTEN_MODEL } from '../runtimes/genkit-js/read/loopscope-markers';
import { scenarioOfScriptedModel } from '../contract/scenario';
import { openSpanFromStart } from '../contract/open-span';
import { isPaused, openSpanClosing, runningToolOf, type ClosedBy, type OpenSpanEnding, type RunningTool } from '../runtimes/open-spans';

/**
 * What a start notice carries: enough for a dialect to claim and classify the open span —
 * genkit's attributes, and the OTel GenAI conventions' that the AI SDK sets at a span's start
 * (operation, agent, model, tool name, call id and arguments).
 */
const START_ATTRIBUTES = [
  'genkit:type',
  'genkit:metadata:subtype',
  'genkit:name',
  'genkit:path',
  'genkit:metadata:resumed',
  GEN_AI.operation,
  GEN_AI.agentName,
  GEN_AI.requestModel,
  GEN_AI.toolName,
  GEN_AI.toolCallId,
  GEN_AI.toolType,
  GEN_AI.toolArguments,
];

/**
 * Models Loopscope defines in the runner itself: a scenario's scripted model (`scripted/<scenario>`,
 * in either runtime) and the model that plays hand-written parts. They play data and run no
 * tools/ code.
 */
function isLoopscopeModel(name: string | undefined): boolean {
  return name !== undefined && (scenarioOfScriptedModel(name) !== undefined || name === HAND_WRITTEN_MODEL);
}

/**
 * A span that may run code from tools/ (a tool, or a model that is not Loopscope's own: a
 * tools/ module can define one): its start must be out before that code runs. A scripted
 * model's turn is not: its start goes with the next batch, which halves a fast loop's spool
 * writes (one per tool run, not one per turn as well: bench/capture-overhead.bench.ts).
 */
function runsCode(attributes: Record<string, string>, spanName: string): boolean {
  // genkit names an action's span after the action (its `genkit:name` comes only at the end).
  if (attributes['genkit:type'] === 'action') return !(attributes['genkit:metadata:subtype'] === 'model' && isLoopscopeModel(spanName));
  const operation = attributes[GEN_AI.operation];
  if (operation === undefined) return false;
  return TOOL_OPERATIONS.has(operation) || (MODEL_OPERATIONS.has(operation) && !isLoopscopeModel(attributes[GEN_AI.requestModel]));
}

function hrTimeToNanos([seconds, nanos]: [number, number]): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

interface OpenSpan {
  span: SdkSpan;
  event: SpanStartEvent;
}

/**
 * Reports every span start and end of a run at once (the page shows a running tool before
 * its span reaches the receiver; the server keeps what a dying runner did), ties trace ids
 * to the run that made them, and remembers which spans of each request are still open, so
 * that a run that ends with a span genkit never ended (a tool past its time limit: its
 * promise never settles) can end it, as failed, through the SDK.
 */
export class SpanLifecycleReporter implements SpanProcessor {
  private readonly owners = new WeakMap<object, SpanOwner>();
  /** Open spans by request id, then by span id. */
  private readonly open = new Map<string, Map<string, OpenSpan>>();
  /** Requests reported over while their code still runs (stopped by the user): what they start later is not reported. */
  private readonly abandoned = new Set<string>();
  /** Spans of abandoned requests, never reported. */
  private readonly silenced = new WeakSet<object>();

  constructor(
    private readonly options: {
      onStart: (event: SpanStartEvent, details: { urgent: boolean }) => void;
      /** Every ended span, `owner` undefined for one that started outside a run (it is stored all the same). */
      onEnd: (span: ReadableSpan, owner: SpanOwner | undefined) => void;
    },
  ) {}

  onStart(span: SdkSpan, _parentContext: Context): void {
    const run = runContext.getStore();
    if (!run) return;
    if (this.abandoned.has(run.requestId)) {
      this.silenced.add(span);
      return;
    }
    const spanContext = span.spanContext();
    const attributes: Record<string, string> = {};
    for (const key of START_ATTRIBUTES) {
      const value = span.attributes[key];
      if (value !== undefined) attributes[key] = String(value);
    }
    if (attributes['genkit:metadata:subtype'] === 'tool') {
      // genkit writes the input only at the end; a span that never ends would lose it.
      const request = claimToolRequest(span.name);
      if (request?.inputJson !== undefined) attributes['genkit:input'] = request.inputJson;
      if (request?.ref !== undefined) attributes[TOOL_REF_ATTRIBUTE] = request.ref;
    }
    run.traceIds.add(spanContext.traceId);
    const event: SpanStartEvent = {
      runId: run.runId,
      requestId: run.requestId,
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      parentSpanId: span.parentSpanContext?.spanId,
      name: span.name,
      attributes,
      startTimeUnixNano: hrTimeToNanos(span.startTime),
      scope: span.instrumentationScope.version === undefined ? { name: span.instrumentationScope.name } : { name: span.instrumentationScope.name, version: span.instrumentationScope.version },
    };
    const owner = { runId: run.runId, requestId: run.requestId };
    this.owners.set(span, owner);
    let openOfRequest = this.open.get(run.requestId);
    if (!openOfRequest) this.open.set(run.requestId, (openOfRequest = new Map()));
    openOfRequest.set(spanContext.spanId, { span, event });
    this.options.onStart(event, { urgent: runsCode(attributes, span.name) });
  }

  onEnd(span: ReadableSpan): void {
    if (this.silenced.has(span)) return;
    const owner = this.owners.get(span);
    if (owner) {
      const openOfRequest = this.open.get(owner.requestId);
      openOfRequest?.delete(span.spanContext().spanId);
      if (openOfRequest?.size === 0) this.open.delete(owner.requestId);
    }
    // A span outside any run still belongs in the store, as the OTLP exporter used to deliver it.
    this.options.onEnd(span, owner);
  }

  /**
   * A tool of the request executing now (an open span its runtime's dialect reads as one), if
   * any; a tool paused before it runs (`paused`: the AI SDK opens its span first) is not executing.
   */
  runningTool(requestId: string, paused: readonly RunningTool[] = []): RunningTool | undefined {
    for (const { event } of this.open.get(requestId)?.values() ?? []) {
      const tool = runningToolOf(openSpanFromStart(event));
      if (tool && !isPaused(tool, paused)) return tool;
    }
    return undefined;
  }

  /**
   * Ends every span of the request that is still open, as failed or stopped (`ending`), in its
   * runtime's shape (its dialect's closing: lib/loop/open-spans.ts), keeping the attributes
   * known from its start. Returns how many were closed.
   */
  closeOpenSpans(requestId: string, close: { ending: OpenSpanEnding; closedBy: ClosedBy }): number {
    const openOfRequest = this.open.get(requestId);
    if (!openOfRequest) return 0;
    const spans = [...openOfRequest.values()];
    for (const { span, event } of spans) {
      const closing = openSpanClosing({ span: openSpanFromStart(event), ending: close.ending });
      span.setAttributes({ ...event.attributes, ...(closing.attributes as Record<string, OtelAttributeValue>), [CLOSED_BY_ATTRIBUTE]: close.closedBy });
      span.setStatus({ code: SpanStatusCode.ERROR, message: closing.status.message });
      span.end();
    }
    this.open.delete(requestId);
    return spans.length;
  }

  /**
   * The request was reported over while its code still runs (the user stopped it during a tool
   * that never looks at the abort): spans it starts from now on are not reported — the run's
   * trace ends where Stop ended it. The runner is replaced soon after (lib/server/runners/runner-process.ts).
   */
  abandon(requestId: string): void {
    this.abandoned.add(requestId);
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
