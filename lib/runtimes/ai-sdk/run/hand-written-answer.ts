import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { z } from 'zod';
import type { HandWrittenPartSchema } from '../../../contract/pause';
import { HAND_WRITTEN_MODEL } from '../read/loopscope-markers';

type HandWrittenPart = z.infer<typeof HandWrittenPartSchema>;

const NO_USAGE: LanguageModelV4GenerateResult['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * The parts written at a model pause as a provider's answer: text parts, and tool calls whose
 * `toolCallId` is the part's `ref` and whose input is sent exactly as written (the SDK then
 * parses it as it would a model's: an unknown tool or a bad input becomes its own tool-error).
 */
export function handWrittenContent(parts: readonly HandWrittenPart[]): LanguageModelV4Content[] {
  return parts.map((part): LanguageModelV4Content =>
    'text' in part
      ? { type: 'text', text: part.text }
      : { type: 'tool-call', toolCallId: part.toolRequest.ref, toolName: part.toolRequest.name, input: JSON.stringify(part.toolRequest.input ?? {}) },
  );
}

function finishReasonOf(content: readonly LanguageModelV4Content[]): LanguageModelV4GenerateResult['finishReason'] {
  return content.some((part) => part.type === 'tool-call') ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

/** A `doGenerate` result for a hand-written answer; its response model is `loopscope/hand-written`, so the `chat` span says who answered. */
export function handWrittenResult(parts: readonly HandWrittenPart[]): LanguageModelV4GenerateResult {
  const content = handWrittenContent(parts);
  return { content, finishReason: finishReasonOf(content), usage: NO_USAGE, response: { id: `hand-written-${Date.now()}`, modelId: HAND_WRITTEN_MODEL }, warnings: [] };
}

/** The same answer as a `doStream` stream, for `streamText`. */
export function handWrittenStream(parts: readonly HandWrittenPart[]): ReadableStream<LanguageModelV4StreamPart> {
  const result = handWrittenResult(parts);
  const stream: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: result.response?.id, modelId: HAND_WRITTEN_MODEL }];
  for (const [index, part] of result.content.entries()) {
    if (part.type === 'text') stream.push({ type: 'text-start', id: `text-${index}` }, { type: 'text-delta', id: `text-${index}`, delta: part.text }, { type: 'text-end', id: `text-${index}` });
    else stream.push(part as LanguageModelV4StreamPart);
  }
  stream.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return new ReadableStream({
    start(controller) {
      for (const part of stream) controller.enqueue(part);
      controller.close();
    },
  });
}
