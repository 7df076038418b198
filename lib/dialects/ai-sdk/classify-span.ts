import type { Span } from '../../trace/span';
import { classifyOtelSpan, type SpanClassification, type SpanOutcome } from '../../trace/span-classification';
import { TOOL_CALLS_FINISH_REASONS } from '../otel-genai/genai-attributes';
import { LEGACY } from './legacy-spans';
import { AI_SDK_MARK_ATTRIBUTES, AI_SDK_SCOPES } from './sdk-words';
import { toolCallParts, toolResponsesById } from '../otel-genai/genai-messages';
import { finishReasonsOfSpan, messagesView, sdkSpanKind, sdkSpanLabel, sdkSpanSource } from './span-views';

/**
 * True for the spans the AI SDK records: those of its default tracers (`gen_ai` for
 * `@ai-sdk/otel`'s `OpenTelemetry`, `ai` for `LegacyOpenTelemetry`) with the GenAI conventions'
 * `gen_ai.operation.name` or a legacy `ai.*` operation, and — whatever the tracer — a span with
 * the SDK's own marks (`ai.operationId`, the duration attributes `@ai-sdk/otel` writes on
 * spans). Other apps' GenAI spans are other dialects' (lib/dialects/registry.ts).
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
function looksPaused(span: Span): boolean {
  if (!finishReasonsOfSpan(span).some((reason) => TOOL_CALLS_FINISH_REASONS.has(reason))) return false;
  const { messages } = messagesView(span).output;
  const answered = toolResponsesById(messages);
  return messages.some((message) => toolCallParts(message).some((part) => part.id !== undefined && !answered.has(part.id)));
}

/** Classifies one AI SDK span. Pure; compute once per span and keep the result. */
export function classifyAiSdkSpan(span: Span): SpanClassification {
  const kind = sdkSpanKind(span);
  const base = classifyOtelSpan(span);
  const role = kind === 'call' ? 'generate' : kind === 'model' ? 'model' : kind === 'tool' ? 'tool' : 'other';
  let outcome: SpanOutcome = base.outcome;
  if (outcome === 'ok' && role === 'generate' && looksPaused(span)) outcome = 'interrupted';
  return { ...base, role, label: sdkSpanLabel(span), outcome };
}
