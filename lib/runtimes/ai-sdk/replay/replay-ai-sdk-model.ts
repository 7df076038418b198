import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { formatModelMessages } from '@ai-sdk/otel';
import { trace } from '@opentelemetry/api';
import type { LanguageModelCallStartEvent } from 'ai';
import { CALL_SETTING_NAMES } from '../read/call-settings';
import type { AiSdkCallStep, AiSdkRecordedResponse, SpanRef } from '../read/recording';
import { ReplayStopped, type ReplaySession } from '../../../replay/replay-session';
import { jsonCopy } from '../../../spans/json-value';

/** The span running now (the `chat` span during a model call), when a tracer records one. */
export function activeSpan(): SpanRef | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || /^0+$/.test(context.traceId)) return undefined;
  return { traceId: context.traceId, spanId: context.spanId };
}

/** What `generateText` announced for the model call about to start (its `onLanguageModelCallStart`). */
export interface AnnouncedCall {
  messages?: LanguageModelCallStartEvent['messages'];
}

/**
 * The request of a model call in the words its recording used, so the two compare field by
 * field: the GenAI conventions record the step's messages as `@ai-sdk/otel` formats them
 * (`formatModelMessages`, the very function the recorder ran) and legacy spans the provider
 * prompt as the model received it; both record the tool definitions the model was sent and
 * the call settings (`config`).
 */
function requestOf({ step, options, announced }: { step: AiSdkCallStep; options: LanguageModelV4CallOptions; announced: AnnouncedCall }): Record<string, unknown> {
  let messages: unknown;
  if (step.source === 'legacy') messages = jsonCopy(options.prompt);
  else {
    const formatted = formatModelMessages({ prompt: undefined, messages: announced.messages as never });
    // The recorder leaves the attribute out for no messages.
    messages = formatted.length > 0 ? jsonCopy(formatted) : undefined;
  }
  const config: Record<string, unknown> = {};
  for (const name of CALL_SETTING_NAMES) if (options[name] !== undefined) config[name] = jsonCopy(options[name]);
  return { messages, tools: options.tools === undefined ? undefined : jsonCopy(options.tools), config };
}

function resultOf(response: AiSdkRecordedResponse): LanguageModelV4GenerateResult {
  const inputTokens = response.inputTokens ?? 0;
  const outputTokens = response.outputTokens ?? 0;
  return {
    content: response.content.map((part): LanguageModelV4Content => (part.type === 'tool-result' ? { ...part, result: part.result as never } : part)),
    finishReason: { unified: response.finishReason as LanguageModelV4GenerateResult['finishReason']['unified'], raw: response.finishReason },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
    },
    response: { ...(response.responseId !== undefined ? { id: response.responseId } : {}), ...(response.modelId !== undefined ? { modelId: response.modelId } : {}) },
    warnings: [],
  };
}

/**
 * A real `LanguageModelV4` that answers each call of a recorded AI SDK call from its recorded
 * model call, in order, after the session compared the request it received with the recorded
 * one (messages, tool definitions). A strict replay that stopped at a divergence refuses every
 * later call, so the loop ends there: a tool's throw would only become a tool error.
 */
export function replayLanguageModel({ step, session, announced }: { step: AiSdkCallStep; session: ReplaySession; announced: AnnouncedCall }): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: step.provider,
    modelId: step.modelId,
    supportedUrls: {},
    async doGenerate(options) {
      if (session.stopped) throw new ReplayStopped(session.stopped);
      const response = session.answerModel(requestOf({ step, options, announced }), activeSpan());
      return resultOf(response as unknown as AiSdkRecordedResponse);
    },
    async doStream() {
      throw new Error('A replayed AI SDK call runs with generateText: the replay model does not stream.');
    },
  };
}
