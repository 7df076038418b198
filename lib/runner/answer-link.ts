/**
 * Makes a resume say which interrupt it answers, the standard OpenTelemetry way: a span link
 * on the resume's root span to the interrupted generate's span, marked with Loopscope's link
 * attribute. genkit records an interrupt and its resume as unrelated traces (docs/interrupt-model.md
 * §4); with the link, any OTel tool shows the connection and Loopscope's linking
 * (lib/graph/match-resumes.ts) never has to guess from content.
 */
import { TraceFlags, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span as SdkSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ContextSlot } from './context-slot';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE, REPLAYS_LINK_VALUE } from '../spans/trace-link-keys';

/** A span by its ids (hex). */
export interface SpanRef {
  traceId: string;
  spanId: string;
}

interface Pending {
  answers?: SpanRef;
  replays?: SpanRef;
  onRootSpan?: (root: SpanRef) => void;
  seen: boolean;
}

const pending = new ContextSlot<Pending>('answer-link');

/**
 * Runs one generate call so that the first root span it starts links to `answers` (when
 * given: the interrupt it answers) and to `replays` (when given: the recorded call a replay or
 * fork plays again, so the list shows it under its recording), and is reported to `onRootSpan`
 * (so a later resume can link back to it). Needs
 * `AnswerLinkProcessor` among the tracer provider's span processors.
 */
export function traceGenerate<T>(options: { answers?: SpanRef; replays?: SpanRef; onRootSpan?: (root: SpanRef) => void }, run: () => Promise<T>): Promise<T> {
  return pending.run({ ...options, seen: false }, run);
}

/** The span processor that adds the answer link at the root span's start (links must be known then to reach every exporter). */
export class AnswerLinkProcessor implements SpanProcessor {
  onStart(span: SdkSpan, _parentContext: Context): void {
    const store = pending.getStore();
    if (!store || store.seen || span.parentSpanContext !== undefined) return;
    store.seen = true;
    const { traceId, spanId } = span.spanContext();
    store.onRootSpan?.({ traceId, spanId });
    if (store.answers) {
      span.addLink({
        context: { traceId: store.answers.traceId, spanId: store.answers.spanId, traceFlags: TraceFlags.SAMPLED },
        attributes: { [ANSWERS_LINK_ATTRIBUTE]: ANSWERS_LINK_VALUE },
      });
    }
    if (store.replays) {
      span.addLink({
        context: { traceId: store.replays.traceId, spanId: store.replays.spanId, traceFlags: TraceFlags.SAMPLED },
        attributes: { [ANSWERS_LINK_ATTRIBUTE]: REPLAYS_LINK_VALUE },
      });
    }
  }
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
