import type { genkit } from 'genkit/beta';
import { geminiKeySet, OPENAI_COMPATIBLE_PROVIDER } from '../../../contract/provider';
import { providerEndpointOf } from '../../../runner/provider-endpoint';

type GenkitPlugins = NonNullable<NonNullable<Parameters<typeof genkit>[0]>['plugins']>;

/**
 * The provider plugins the runner's one genkit instance starts with, so a generate names a real
 * model like any genkit app does (`openai-compatible/<model>`, `googleai/<model>`) and genkit's
 * registry resolves it through the plugin — also for a resume of a recorded run of that model.
 *
 * - `@genkit-ai/compat-oai`'s `openAICompatible` for the endpoint, when one is set. Its default
 *   resolver defines any model id on first use. `apiKey: false` makes it send a placeholder
 *   (local servers ask for none). `maxRetries: 0`: the `openai` client retries 5xx and 429 twice
 *   by default inside one model span; a debugger shows the first answer, as one call.
 * - `@genkit-ai/google-genai`'s `googleAI`, when a Gemini key is in the environment (it reads it).
 *
 * genkit registers plugins only when the instance is made: a changed endpoint means new runners
 * (lib/server/services/provider-config.ts replaces them).
 */
export async function providerPlugins(environment: Readonly<Record<string, string | undefined>>): Promise<GenkitPlugins> {
  const plugins: GenkitPlugins = [];
  const endpoint = providerEndpointOf(environment);
  // Imported only when used: the `openai` client it loads adds to every runner's cold start.
  if (endpoint) {
    const { openAICompatible } = await import('@genkit-ai/compat-oai');
    plugins.push(openAICompatible({ name: OPENAI_COMPATIBLE_PROVIDER, baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey ?? false, maxRetries: 0 }));
  }
  if (geminiKeySet(environment)) {
    const { googleAI } = await import('@genkit-ai/google-genai');
    plugins.push(googleAI());
  }
  return plugins;
}
