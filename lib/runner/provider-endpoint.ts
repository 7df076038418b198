/**
 * The real-model endpoint a runner was started with: every runtime in the runner that can call
 * one (genkit through its plugin, the AI SDK through @ai-sdk/openai-compatible) reads it here.
 */
import { PROVIDER_ENVIRONMENT } from '../contract/provider';

/** The OpenAI-compatible endpoint a runner was started with (its environment), if any. */
export interface ProviderEndpoint {
  baseUrl: string;
  apiKey?: string;
}

/** Reads the endpoint from a runner's environment (the server sets it when it spawns the runner). */
export function providerEndpointOf(environment: Readonly<Record<string, string | undefined>>): ProviderEndpoint | undefined {
  const baseUrl = environment[PROVIDER_ENVIRONMENT.baseUrl]?.trim();
  if (!baseUrl) return undefined;
  const apiKey = environment[PROVIDER_ENVIRONMENT.apiKey];
  return { baseUrl, ...(apiKey ? { apiKey } : {}) };
}

