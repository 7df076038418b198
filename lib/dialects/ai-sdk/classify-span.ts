import type { Span } from '../../trace/span';
import type { SpanIndex } from '../span-index';
import { classifyOtelSpan, type SpanClassification, type SpanOutcome } from '../../trace/span-classification';
import { GEN_AI, TOOL_CALLS_FINISH_REASONS } from '../otel-genai/genai-attributes';
import { LEGACY } from './legacy-spans';
import { LEGACY_CALLS, LEGACY_MODEL_CALLS, LEGACY_TOOL_CALLS } from './sdk-words';
import { toolCallParts, toolResponsesById } from '../otel-genai/genai-messages';
import { finishReasonsOfSpan, messagesView, sdkSpanKind, sdkSpanLabel, sdkSpanSource } from './span-views';

/** True for the spans the AI SDK records (the GenAI conventions' `gen_ai.operation.name`, or a legacy `ai.*` span). */
export function isAiSdkSpan(span: Span): boolean {
  return sdkSpanSource(span) !== undefined;
}

/** What every span `isAiSdkSpan` accepts carries: a GenAI operation, a legacy operation id, or a legacy span's name (sdkSpanSource). */
export const AI_SDK_CLAIMED_BY = {
  attributes: [GEN_AI.operation, LEGACY.operationId],
  spanNames: [...LEGACY_CALLS, ...LEGACY_MODEL_CALLS, ...LEGACY_TOOL_CALLS],
} as const;

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
