import type { Span } from '../../../spans/span';
import type { SpanIndex } from '../../../loop/span-index';
import { classifyOtelSpan, type SpanClassification, type SpanOutcome } from '../../../spans/span-classification';
import { TOOL_CALLS_FINISH_REASONS } from '../../otel-genai/read/genai-attributes';
import { toolCallParts, toolResponsesById } from '../../otel-genai/read/genai-messages';
import { LEGACY } from './legacy-spans';
import { AI_SDK_MARK_ATTRIBUTES, AI_SDK_SCOPES } from './sdk-words';
import { finishReasonsOfSpan, messagesView, sdkSpanKind, sdkSpanLabel, sdkSpanSource } from './span-views';

/**
 * True for the spans the AI SDK records: those of its default tracers (`gen_ai` for
 * `@ai-sdk/otel`'s `OpenTelemetry`, `ai` for `LegacyOpenTelemetry`) with the GenAI conventions'
 * `gen_ai.operation.name` or a legacy `ai.*` operation, and — whatever the tracer — a span with
 * the SDK's own marks (`ai.operationId`, the duration attributes `@ai-sdk/otel` writes on
 * spans). Other apps' GenAI spans are other dialects' (lib/runtimes/index.ts).
 */
export function isAiSdkSpan(span: Span): boolean {
  const source = sdkSpanSource(span);
  if (source === undefined) return false;
  if (AI_SDK_SCOPES.includes(span.scope.name)) return true;
  if (source === 'legacy') return span.attributes[LEGACY.operationId] !== undefined;
  return AI_SDK_MARK_ATTRIBUTES.some((key) => span.attributes[key] !== undefined);
}

/**
 * A call that stopped with `tool-calls` and whose recorded answer holds a tool call with no
 * response: waiting for an approval or a caller's result (nothing in the conventions marks a
 * pause: docs/interrupt-model.md). The call reader decides from all its spans; this quick look
 * at one span is for lists and for finding a paused call to answer.
 */
function looksPaused(span: Span, index?: SpanIndex): boolean {
  if (!finishReasonsOfSpan(span).some((reason) => TOOL_CALLS_FINISH_REASONS.has(reason))) return false;
  const { messages } = messagesView(span, index ? { index, last: false } : undefined).output;
  const answered = toolResponsesById(messages);
  return messages.some((message) => toolCallParts(message).some((part) => part.id !== undefined && !answered.has(part.id)));
}

/** Classifies one AI SDK span (a call's messages parsed here are kept in `index`, when given, for the call reader). Pure; compute once per span and keep the result. */
export function classifyAiSdkSpan(span: Span, index?: SpanIndex): SpanClassification {
  const kind = sdkSpanKind(span);
  const base = classifyOtelSpan(span);
  const role = kind === 'call' ? 'generate' : kind === 'model' ? 'model' : kind === 'tool' ? 'tool' : 'other';
  let outcome: SpanOutcome = base.outcome;
  if (outcome === 'ok' && role === 'generate' && looksPaused(span, index)) outcome = 'interrupted';
  return { ...base, role, label: sdkSpanLabel(span), outcome };
}
