/**
 * The OpenInference semantic conventions (Arize's `openinference-instrumentation-*` packages), as
 * Loopscope reads them: a span's kind, its input and output, the LLM span's flattened messages,
 * tools and finish reason, the tool span's name. A convention, not a runtime: the frameworks an
 * OpenInference instrumentation records (LangGraph, …) read it through this folder and keep
 * their own words in theirs (docs/guides).
 */
import type { AttributeValue, Span } from '../../spans/span';

export const OPENINFERENCE = {
  spanKind: 'openinference.span.kind',
  inputValue: 'input.value',
  outputValue: 'output.value',
  sessionId: 'session.id',
  metadata: 'metadata',
  toolName: 'tool.name',
  toolDescription: 'tool.description',
  modelName: 'llm.model_name',
  provider: 'llm.provider',
  finishReason: 'llm.finish_reason',
  inputMessages: 'llm.input_messages',
  outputMessages: 'llm.output_messages',
  tools: 'llm.tools',
} as const;

/** The span kinds of the conventions (`openinference.span.kind`). */
export type OpenInferenceKind = 'AGENT' | 'CHAIN' | 'LLM' | 'TOOL' | 'RETRIEVER' | 'EMBEDDING' | 'RERANKER' | 'GUARDRAIL' | 'EVALUATOR';

/** A span's OpenInference kind, when it has one. */
export function openInferenceKind(span: Span): string | undefined {
  const kind = span.attributes[OPENINFERENCE.spanKind];
  return typeof kind === 'string' ? kind.toUpperCase() : undefined;
}

/** A string attribute, or undefined. */
export function textOf(value: AttributeValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
