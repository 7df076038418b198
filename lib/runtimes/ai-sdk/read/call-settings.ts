/**
 * The call settings a model call was sent, as `@ai-sdk/otel` records them on a `chat` span (and
 * `LegacyOpenTelemetry` on `doGenerate`): the GenAI conventions' `gen_ai.request.*` attributes,
 * named as `generateText` and `LanguageModelV4CallOptions` name them. A replay passes them to
 * `generateText` and compares what the model receives with them.
 */
import type { Span } from '../../../spans/span';

/** `generateText` option → the convention's attribute. */
const SETTING_ATTRIBUTES = {
  maxOutputTokens: 'gen_ai.request.max_tokens',
  temperature: 'gen_ai.request.temperature',
  topP: 'gen_ai.request.top_p',
  topK: 'gen_ai.request.top_k',
  presencePenalty: 'gen_ai.request.presence_penalty',
  frequencyPenalty: 'gen_ai.request.frequency_penalty',
  stopSequences: 'gen_ai.request.stop_sequences',
} as const;

export type AiSdkCallSettings = Partial<Record<Exclude<keyof typeof SETTING_ATTRIBUTES, 'stopSequences'>, number>> & { stopSequences?: string[] };

export const CALL_SETTING_NAMES = Object.keys(SETTING_ATTRIBUTES) as (keyof typeof SETTING_ATTRIBUTES)[];

/** The settings recorded on a model span (only those recorded). */
export function recordedCallSettings(span: Span): AiSdkCallSettings {
  const settings: AiSdkCallSettings = {};
  for (const name of CALL_SETTING_NAMES) {
    const value = span.attributes[SETTING_ATTRIBUTES[name]];
    if (name === 'stopSequences') {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) settings.stopSequences = value as string[];
    } else if (typeof value === 'number') settings[name] = value;
  }
  return settings;
}
