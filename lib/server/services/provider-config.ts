/**
 * The real-model setting of this server, in one place: the OpenAI-compatible endpoint
 * (LOOPSCOPE_OPENAI_BASE_URL / LOOPSCOPE_OPENAI_API_KEY at start, or `POST /api/provider`),
 * Gemini's availability (a key in the environment), the picker's default (LOOPSCOPE_MODEL), the
 * endpoint's model list, and which run may use which model. The key stays here and in the
 * runners' environment: `settings()` says only whether one is set, and no message carries it.
 */
import { z } from 'zod';
import {
  bodyExcerpt,
  choiceOfGenkitModel,
  describeChoice,
  EndpointUrlSchema,
  geminiKeySet,
  PROVIDER_ENVIRONMENT,
  type ProviderChoice,
  type ProviderModelsResponse,
  type ProviderSettings,
  type RealModelChoice,
  type UpdateProviderRequest,
} from '../../contract/provider';
import type { RealModelSupport } from '../../runtimes/runtime-driver';
import { errorMessage, LoopscopeError } from '../../errors';

/** The Gemini models the picker offers when a key is set (no listing call: the key's models are not asked for). */
const GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro'];
const LIST_TIMEOUT_MS = 5_000;

const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

interface Endpoint {
  baseUrl: string;
  apiKey?: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

function endpointFromEnvironment(environment: Environment): Endpoint | undefined {
  const raw = environment[PROVIDER_ENVIRONMENT.baseUrl]?.trim();
  if (!raw) return undefined;
  const parsed = EndpointUrlSchema.safeParse(raw);
  if (!parsed.success) {
    // The key is not part of the message; the URL is the user's own setting.
    console.error(`loopscope: ignoring ${PROVIDER_ENVIRONMENT.baseUrl}: ${parsed.error.issues[0]?.message}`);
    return undefined;
  }
  const apiKey = environment[PROVIDER_ENVIRONMENT.apiKey];
  return { baseUrl: parsed.data, ...(apiKey ? { apiKey } : {}) };
}

export class ProviderConfig {
  private endpoint: Endpoint | undefined;
  private source: 'env' | 'ui' | 'unset';
  private readonly gemini: boolean;
  private readonly modelSetting: string | undefined;

  /** `onEndpointChanged` replaces the runners: genkit registers its plugins when its instance is made. */
  constructor(private readonly options: { environment: Environment; onEndpointChanged: (reason: string) => void }) {
    this.endpoint = endpointFromEnvironment(options.environment);
    this.source = this.endpoint ? 'env' : 'unset';
    this.gemini = geminiKeySet(options.environment);
    this.modelSetting = options.environment[PROVIDER_ENVIRONMENT.model]?.trim() || undefined;
  }

  settings(): ProviderSettings {
    return {
      openaiCompatible: { baseUrl: this.endpoint?.baseUrl ?? null, apiKeySet: Boolean(this.endpoint?.apiKey), source: this.source },
      gemini: { available: this.gemini, models: this.gemini ? GEMINI_MODELS : [] },
      defaultChoice: this.defaultChoice(),
    };
  }

  /** LOOPSCOPE_MODEL: `googleai/<model>` for Gemini, else a model id of the endpoint; `scripted` when it names nothing usable. */
  private defaultChoice(): ProviderChoice {
    if (!this.modelSetting) return { kind: 'scripted' };
    const genkit = choiceOfGenkitModel(this.modelSetting);
    if (genkit?.kind === 'gemini') return this.gemini ? genkit : { kind: 'scripted' };
    const model = genkit?.kind === 'openai-compatible' ? genkit.model : this.modelSetting;
    return this.endpoint ? { kind: 'openai-compatible', model } : { kind: 'scripted' };
  }

  /** Sets or clears the endpoint (an authenticated `POST /api/provider`); the runners are replaced when it changed. */
  update(request: UpdateProviderRequest): ProviderSettings {
    const before = JSON.stringify(this.endpoint ?? null);
    if (request.baseUrl === null) {
      this.endpoint = undefined;
    } else {
      const apiKey = request.apiKey === undefined ? this.endpoint?.apiKey : (request.apiKey ?? undefined);
      this.endpoint = { baseUrl: request.baseUrl, ...(apiKey ? { apiKey } : {}) };
    }
    this.source = this.endpoint ? 'ui' : 'unset';
    if (JSON.stringify(this.endpoint ?? null) !== before) this.options.onEndpointChanged('the OpenAI-compatible endpoint changed');
    return this.settings();
  }

  /** What each runner is spawned with (an empty value clears what the server's own environment set). */
  runnerEnvironment(): Record<string, string> {
    return { [PROVIDER_ENVIRONMENT.baseUrl]: this.endpoint?.baseUrl ?? '', [PROVIDER_ENVIRONMENT.apiKey]: this.endpoint?.apiKey ?? '' };
  }

  /** Which real models a runner can call now: the workbench's resume of a recorded run needs its model's provider. */
  availability(): { openaiCompatible: boolean; gemini: boolean } {
    return { openaiCompatible: this.endpoint !== undefined, gemini: this.gemini };
  }

  /**
   * The endpoint's models (`GET {baseUrl}/models`, the OpenAI list). What went wrong is data: the
   * status and a short, encoded excerpt of the body, or why it could not be reached.
   */
  async listModels(): Promise<ProviderModelsResponse> {
    if (!this.endpoint) return { models: [], problem: `No OpenAI-compatible endpoint is set (${PROVIDER_ENVIRONMENT.baseUrl}, or the form on the home page).` };
    const url = `${this.endpoint.baseUrl.replace(/\/+$/, '')}/models`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json', ...(this.endpoint.apiKey ? { Authorization: `Bearer ${this.endpoint.apiKey}` } : {}) },
        signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      return { models: [], problem: `GET ${url} failed: ${errorMessage(error)}` };
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) return { models: [], problem: `GET ${url} answered ${response.status}: ${bodyExcerpt(body)}` };
    let parsed: z.ZodSafeParseResult<z.infer<typeof ModelListSchema>>;
    try {
      parsed = ModelListSchema.safeParse(JSON.parse(body));
    } catch {
      return { models: [], problem: `GET ${url} answered ${response.status} with no JSON: ${bodyExcerpt(body)}` };
    }
    if (!parsed.success) return { models: [], problem: `GET ${url} answered ${response.status} without an OpenAI model list ({data: [{id}]}): ${bodyExcerpt(body)}` };
    return { models: [...new Set(parsed.data.data.map((model) => model.id))].sort() };
  }

  /**
   * Refuses a choice this server cannot run for a scenario whose runtime supports `support`: a
   * runtime without that provider (in its own words), or a provider that is not set up.
   * @throws LoopscopeError FAILED_PRECONDITION
   */
  check({ choice, support }: { choice: RealModelChoice; support: RealModelSupport }): void {
    const refuse = (why: string) => new LoopscopeError('FAILED_PRECONDITION', `Cannot run on ${describeChoice(choice)}: ${why}`);
    const supported = choice.kind === 'gemini' ? support.gemini : support.openaiCompatible;
    if (supported !== true) throw refuse(supported);
    if (choice.kind === 'gemini') {
      if (!this.gemini) throw refuse('no Gemini key was set when the server started (GEMINI_API_KEY or GOOGLE_API_KEY).');
      return;
    }
    if (!this.endpoint) throw refuse(`no OpenAI-compatible endpoint is set (${PROVIDER_ENVIRONMENT.baseUrl}, or the form on the home page).`);
  }
}
