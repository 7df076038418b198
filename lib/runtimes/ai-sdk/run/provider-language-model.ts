import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { OPENAI_COMPATIBLE_PROVIDER, PROVIDER_ENVIRONMENT, type RealModelChoice } from '../../../contract/provider';
import type { ProviderEndpoint } from '../../../runner/provider-endpoint';

/**
 * The AI SDK model for a run on a real provider: `@ai-sdk/openai-compatible`'s chat model on the
 * runner's endpoint (provider `openai-compatible.chat`, which @ai-sdk/otel records as the
 * well-known `gen_ai.provider.name` "openai").
 * Gemini is offered to genkit scenarios only: `@ai-sdk/google` is not installed.
 */
export function providerLanguageModel({ choice, endpoint }: { choice: RealModelChoice; endpoint: ProviderEndpoint | undefined }): LanguageModelV4 {
  // The runner's failures carry genkit-style statuses (runAiSdkCall reads `status`).
  const refuse = (message: string) => Object.assign(new Error(message), { status: 'FAILED_PRECONDITION' });
  if (choice.kind !== 'openai-compatible') throw refuse('AI SDK scenarios run on the scripted model or an OpenAI-compatible endpoint; Gemini is offered to genkit scenarios only.');
  if (!endpoint) throw refuse(`No OpenAI-compatible endpoint is set for this runner (${PROVIDER_ENVIRONMENT.baseUrl}).`);
  const provider = createOpenAICompatible({ name: OPENAI_COMPATIBLE_PROVIDER, baseURL: endpoint.baseUrl, ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}) });
  return provider.chatModel(choice.model);
}
