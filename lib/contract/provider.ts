/**
 * Which model plays a scenario run: the scenario's scripted model, a model of an
 * OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM, LM Studio…; genkit through
 * `@genkit-ai/compat-oai`, the AI SDK through `@ai-sdk/openai-compatible`), or Gemini through
 * `@genkit-ai/google-genai` (genkit only). The page sees choices and settings, never the API key.
 */
import { z } from 'zod';

/** The genkit plugin namespace and the AI SDK provider name of the OpenAI-compatible endpoint: genkit records `openai-compatible/<model>`. */
export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';
/** The namespace of `@genkit-ai/google-genai`'s Gemini models in genkit (`googleai/<model>`). */
export const GEMINI_GENKIT_NAMESPACE = 'googleai';

const ModelIdSchema = z.string().trim().min(1, 'name a model').max(200);

/** A real model: a model id of the OpenAI-compatible endpoint, or a Gemini model. What a generate command carries to the runner. */
export const RealModelChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('openai-compatible'), model: ModelIdSchema }),
  z.object({ kind: z.literal('gemini'), model: ModelIdSchema }),
]);
export type RealModelChoice = z.infer<typeof RealModelChoiceSchema>;

/** What a run asks for: `scripted` (the scenario's own script, as always), or a real model. */
export const ProviderChoiceSchema = z.union([z.object({ kind: z.literal('scripted') }), RealModelChoiceSchema]);
export type ProviderChoice = z.infer<typeof ProviderChoiceSchema>;

/**
 * The environment that configures the endpoint: read by the server at start
 * (lib/server/services/provider-config.ts) and handed to each runner it spawns, where the plugins read it
 * (lib/runtimes/genkit-js/run/provider-model.ts). The key never leaves the server and its runners.
 */
export const PROVIDER_ENVIRONMENT = {
  baseUrl: 'LOOPSCOPE_OPENAI_BASE_URL',
  apiKey: 'LOOPSCOPE_OPENAI_API_KEY',
  model: 'LOOPSCOPE_MODEL',
} as const;

/** True when `@genkit-ai/google-genai` finds a key of its own (the variables it reads, its googleai/utils.js). */
export function geminiKeySet(environment: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(environment.GEMINI_API_KEY || environment.GOOGLE_API_KEY || environment.GOOGLE_GENAI_API_KEY);
}

/**
 * A short excerpt of what an endpoint answered, as data: JSON-encoded (quotes, control
 * characters and markup stay visible as text), cut at `max` characters.
 */
export function bodyExcerpt(body: string, max = 200): string {
  return body.length > max ? `${JSON.stringify(body.slice(0, max))}…` : JSON.stringify(body);
}

/** An http(s) URL, the endpoint's API root (`http://127.0.0.1:11434/v1`): the clients append `/chat/completions`, `/models`. */
export const EndpointUrlSchema = z
  .string()
  .trim()
  .max(2_000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'give the endpoint as an http:// or https:// URL without credentials, e.g. http://127.0.0.1:11434/v1');

/** `GET /api/provider`: the endpoint as configured (never the key itself) and the run's default choice. */
export const ProviderSettingsSchema = z.object({
  openaiCompatible: z.object({
    baseUrl: z.string().nullable(),
    apiKeySet: z.boolean(),
    /** Where the setting came from: the environment at server start, the page, or nowhere. */
    source: z.enum(['env', 'ui', 'unset']),
  }),
  /** Gemini is offered when GEMINI_API_KEY or GOOGLE_API_KEY was set at server start. */
  gemini: z.object({ available: z.boolean(), models: z.array(z.string()) }),
  /** LOOPSCOPE_MODEL's choice (or `scripted`): what the picker starts on. */
  defaultChoice: ProviderChoiceSchema,
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** `POST /api/provider`: set or clear the endpoint. An absent `apiKey` keeps the current one, `null` clears it. */
export const UpdateProviderRequestSchema = z.object({
  baseUrl: EndpointUrlSchema.nullable(),
  apiKey: z.string().max(4_000).nullable().optional(),
});
export type UpdateProviderRequest = z.infer<typeof UpdateProviderRequestSchema>;

/** `GET /api/provider/models`: the endpoint's `GET /models`, or why it could not be listed (status and a short, encoded body excerpt). */
export const ProviderModelsResponseSchema = z.object({
  models: z.array(z.string()),
  problem: z.string().optional(),
});
export type ProviderModelsResponse = z.infer<typeof ProviderModelsResponseSchema>;

/** The model name a genkit run records for a choice (`openai-compatible/<model>`, `googleai/<model>`). */
export function genkitModelName(choice: RealModelChoice): string {
  return `${choice.kind === 'gemini' ? GEMINI_GENKIT_NAMESPACE : OPENAI_COMPATIBLE_PROVIDER}/${choice.model}`;
}

/** The choice a recorded genkit model name stands for, or undefined for any other (scripted, hand-written, an app's own). */
export function choiceOfGenkitModel(modelName: string): RealModelChoice | undefined {
  const slash = modelName.indexOf('/');
  if (slash <= 0 || slash === modelName.length - 1) return undefined;
  const [namespace, model] = [modelName.slice(0, slash), modelName.slice(slash + 1)];
  if (namespace === OPENAI_COMPATIBLE_PROVIDER) return { kind: 'openai-compatible', model };
  if (namespace === GEMINI_GENKIT_NAMESPACE) return { kind: 'gemini', model };
  return undefined;
}

/** How the page names a choice. */
export function describeChoice(choice: ProviderChoice): string {
  if (choice.kind === 'scripted') return 'scripted model';
  return choice.kind === 'gemini' ? `Gemini ${choice.model}` : `${choice.model} (OpenAI-compatible)`;
}
