/**
 * The span processor `loopscopeTelemetry()` puts before its exporter. It keeps the spans the app
 * has open (the batch exporter sends a span only when it ends, so a paused call's
 * `invoke_agent`, step and `chat` would be missing from the run's live graph: they travel with
 * each hook instead, as the runner's start notices do), the root span of each trace (what an
 * answering call links to), and turns the answer attribute the call's root span was started
 * with into the standard OTel span link Loopscope reads (lib/runner/answer-link.ts does the
 * same for Loopscope's own resumes: docs/adr/0006-answer-links-as-otel-span-links.md).
 */
import { TraceFlags, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span as SdkSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AttachOpenSpan } from '../../../contract/attach-step';
import { GEN_AI } from '../../otel-genai/read/genai-attributes';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../../spans/trace-link-keys';
import type { SpanRef } from '../../../runner/answer-link';

/**
 * The attribute an answering call's root span starts with (set through @ai-sdk/otel's
 * `enrichSpan`, the one hook that reaches a span before it starts): `<traceId>:<spanId>` of the
 * paused call's root span. The processor turns it into a link at the span's start, when links
 * must be known.
 */
export const ANSWERS_CALL_ATTRIBUTE = 'loopscope.answers';

/**
 * What a hook tells of an open span: the OTel GenAI attributes the SDK sets at a span's start
 * (what the AI SDK dialect claims and classifies it by), never its messages, which can be large
 * and arrive with the ended span anyway.
 */
const START_ATTRIBUTES = [GEN_AI.operation, GEN_AI.agentName, GEN_AI.requestModel, GEN_AI.providerName, GEN_AI.toolName, GEN_AI.toolCallId, GEN_AI.toolType, GEN_AI.toolArguments];
/** The step door's limit on one attribute value (lib/contract/attach-step.ts). */
const MAX_ATTRIBUTE_CHARACTERS = 100_000;
/** Roots remembered (the newest): an answer comes for a recent call. */
const MAX_ROOTS = 1_000;

function nanosOf([seconds, nanos]: [number, number]): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

/** `<traceId>:<spanId>` as a span reference, when it is one. */
function spanRefOf(value: unknown): SpanRef | undefined {
  const match = typeof value === 'string' ? /^([0-9a-f]{32}):([0-9a-f]{16})$/.exec(value) : null;
  return match ? { traceId: match[1], spanId: match[2] } : undefined;
}

export class AppSpanRecorder implements SpanProcessor {
  /** Open spans by trace, then by span id. */
  private readonly open = new Map<string, Map<string, AttachOpenSpan>>();
  private readonly roots = new Map<string, string>();
  private endedSinceAsked = false;

  onStart(span: SdkSpan, _parentContext: Context): void {
    const { traceId, spanId } = span.spanContext();
    const parentSpanId = span.parentSpanContext?.spanId;
    if (parentSpanId === undefined) {
      this.roots.set(traceId, spanId);
      while (this.roots.size > MAX_ROOTS) this.roots.delete(this.roots.keys().next().value as string);
      const answers = spanRefOf(span.attributes[ANSWERS_CALL_ATTRIBUTE]);
      if (answers) span.addLink({ context: { ...answers, traceFlags: TraceFlags.SAMPLED }, attributes: { [ANSWERS_LINK_ATTRIBUTE]: ANSWERS_LINK_VALUE } });
    }
    const attributes: Record<string, string> = {};
    for (const key of START_ATTRIBUTES) {
      const value = span.attributes[key];
      const text = value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
      if (text !== undefined && text.length <= MAX_ATTRIBUTE_CHARACTERS) attributes[key] = text;
    }
    let ofTrace = this.open.get(traceId);
    if (!ofTrace) this.open.set(traceId, (ofTrace = new Map()));
    const scope = span.instrumentationScope;
    ofTrace.set(spanId, {
      spanId,
      ...(parentSpanId !== undefined ? { parentSpanId } : {}),
      name: span.name.slice(0, 500),
      attributes,
      startTimeUnixNano: nanosOf(span.startTime),
      scope: { name: scope.name.slice(0, 200), ...(scope.version !== undefined ? { version: scope.version.slice(0, 100) } : {}) },
    });
  }

  onEnd(span: ReadableSpan): void {
    this.endedSinceAsked = true;
    const { traceId, spanId } = span.spanContext();
    const ofTrace = this.open.get(traceId);
    ofTrace?.delete(spanId);
    if (ofTrace?.size === 0) this.open.delete(traceId);
  }

  /** The spans of a trace started and not ended, oldest first (at most 100: the step door's limit). */
  openSpans(traceId: string | undefined): AttachOpenSpan[] {
    return traceId ? [...(this.open.get(traceId)?.values() ?? [])].slice(0, 100) : [];
  }

  /** The root span of a trace the app started, when it is still remembered. */
  rootOf(traceId: string): SpanRef | undefined {
    const spanId = this.roots.get(traceId);
    return spanId ? { traceId, spanId } : undefined;
  }

  /** Whether a span ended since the last time this was asked (an exit flush has something to send). */
  takeEnded(): boolean {
    const ended = this.endedSinceAsked;
    this.endedSinceAsked = false;
    return ended;
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
