import type { Span } from '../../../spans/span';
import { classifyOtelSpan, type SpanClassification, type SpanOutcome } from '../../../spans/span-classification';
import { TOOL_CALLS_FINISH_REASONS } from '../../otel-genai/read/genai-attributes';
import { toolCallParts, toolResponsesById } from '../../otel-genai/read/genai-messages';
import { finishReasonsOfSpan, messagesView, sdkSpanKind, sdkSpanLabel, sdkSpanSource } from './span-views';

/** True for the spans the AI SDK records (the GenAI conventions' `gen_ai.operation.name`, or a legacy `ai.*` span). */
export function isAiSdkSpan(span: Span): boolean {
  return sdkSpanSource(span) !== undefined;
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
