import type { Span } from '../../../spans/span';
import type { SpanValues } from '../../../loop/runtime-dialect';
import { GEN_AI } from '../../otel-genai/read/genai-attributes';
import { LEGACY } from './legacy-spans';
import { sdkSpanKind, sdkSpanSource } from './span-views';

/**
 * What went in and came out of an AI SDK span, by the attributes its integration writes: the
 * GenAI conventions' messages (calls, model calls) and tool arguments / result; the legacy
 * spans' prompt and response (the text, or the tool calls when the answer has no text).
 */
export function aiSdkSpanValues(span: Span): SpanValues {
  const kind = sdkSpanKind(span);
  if (sdkSpanSource(span) === 'legacy') {
    if (kind === 'tool') return { input: span.attributes[LEGACY.toolArguments], output: span.attributes[LEGACY.toolResult], attributeKeys: [LEGACY.toolArguments, LEGACY.toolResult] };
    const inputKey = kind === 'call' ? LEGACY.prompt : LEGACY.promptMessages;
    const text = span.attributes[LEGACY.text];
    const outputKey = typeof text === 'string' && text !== '' ? LEGACY.text : LEGACY.toolCalls;
    return { input: span.attributes[inputKey], output: span.attributes[outputKey], attributeKeys: [inputKey, outputKey] };
  }
  if (kind === 'tool') return { input: span.attributes[GEN_AI.toolArguments], output: span.attributes[GEN_AI.toolResult], attributeKeys: [GEN_AI.toolArguments, GEN_AI.toolResult] };
  if (kind === 'other') return { attributeKeys: [] };
  return { input: span.attributes[GEN_AI.inputMessages], output: span.attributes[GEN_AI.outputMessages], attributeKeys: [GEN_AI.inputMessages, GEN_AI.outputMessages] };
}
