import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, turnScript, type FakeOpenAiServer } from '../../runner/testing/fake-openai-server';
import { ProviderConfig } from './provider-config';
import { retargetAiSdkAnswer, retargetGenkitAnswer } from '../../runtimes/retarget-scripted-answer';
import { driverOf } from '../../runtimes/drivers';

const realModelsOf = (runtime: string) => driverOf(runtime)!.scenarios!.realModels;

const KEY = 'sk-provider-config-test';
let fake: FakeOpenAiServer;

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ models: ['zeta', 'alpha', 'alpha'], reply: turnScript([]), apiKey: KEY });
});
afterAll(async () => fake?.close());

function config(environment: Record<string, string>) {
  const changes: string[] = [];
  return { providers: new ProviderConfig({ environment, onEndpointChanged: (reason) => changes.push(reason) }), changes };
}

describe('ProviderConfig', () => {
  it('reads the endpoint and LOOPSCOPE_MODEL from the environment; the key is never in the settings', () => {
    const { providers } = config({ LOOPSCOPE_OPENAI_BASE_URL: fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: KEY, LOOPSCOPE_MODEL: 'qwen2.5:7b' });
    const settings = providers.settings();
    expect(settings).toMatchObject({ openaiCompatible: { baseUrl: fake.baseUrl, apiKeySet: true, source: 'env' }, gemini: { available: false }, defaultChoice: { kind: 'openai-compatible', model: 'qwen2.5:7b' } });
    expect(JSON.stringify(settings)).not.toContain(KEY);
    expect(providers.runnerEnvironment()).toEqual({ LOOPSCOPE_OPENAI_BASE_URL: fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: KEY });
  });

  it('LOOPSCOPE_MODEL googleai/… picks Gemini only with a key; a model without an endpoint falls back to scripted', () => {
    expect(config({ LOOPSCOPE_MODEL: 'googleai/gemini-2.5-flash', GEMINI_API_KEY: 'g' }).providers.settings().defaultChoice).toEqual({ kind: 'gemini', model: 'gemini-2.5-flash' });
    expect(config({ LOOPSCOPE_MODEL: 'googleai/gemini-2.5-flash' }).providers.settings().defaultChoice).toEqual({ kind: 'scripted' });
    expect(config({ LOOPSCOPE_MODEL: 'llama3' }).providers.settings().defaultChoice).toEqual({ kind: 'scripted' });
    expect(config({ LOOPSCOPE_OPENAI_BASE_URL: 'file:///etc/passwd' }).providers.settings().openaiCompatible.baseUrl).toBeNull();
  });

  it('lists the endpoint’s models with the key (sorted, once each)', async () => {
    const { providers } = config({ LOOPSCOPE_OPENAI_BASE_URL: fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: KEY });
    const listings = fake.modelListings;
    expect(await providers.listModels()).toEqual({ models: ['alpha', 'zeta'] });
    expect(fake.modelListings).toBe(listings + 1);
  });

  it('an endpoint that refuses, answers no list or cannot be reached is a problem with the status and an encoded excerpt, never the key', async () => {
    const { providers } = config({ LOOPSCOPE_OPENAI_BASE_URL: fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: 'wrong' });
    const refused = await providers.listModels();
    expect(refused.models).toEqual([]);
    expect(refused.problem).toBe(`GET ${fake.baseUrl}/models answered 401: ${JSON.stringify(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }))}`);
    expect(refused.problem).not.toContain('wrong');
    providers.update({ baseUrl: `${fake.baseUrl}/nothing-here`, apiKey: KEY });
    expect((await providers.listModels()).problem).toMatch(/answered 404: "\{\\"error\\":/);
    providers.update({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect((await providers.listModels()).problem).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/v1\/models failed: /);
  });

  it('a change of the endpoint replaces the runners; the same setting again does not; an absent key keeps the key, null clears it', () => {
    const { providers, changes } = config({});
    expect(providers.settings().openaiCompatible.source).toBe('unset');
    providers.update({ baseUrl: fake.baseUrl, apiKey: KEY });
    providers.update({ baseUrl: fake.baseUrl });
    expect(changes).toHaveLength(1);
    expect(providers.settings().openaiCompatible).toEqual({ baseUrl: fake.baseUrl, apiKeySet: true, source: 'ui' });
    providers.update({ baseUrl: fake.baseUrl, apiKey: null });
    expect(providers.settings().openaiCompatible.apiKeySet).toBe(false);
    providers.update({ baseUrl: null });
    expect(changes).toHaveLength(3);
    // Cleared: the runners get empty values, which override what the server's own environment had.
    expect(providers.runnerEnvironment()).toEqual({ LOOPSCOPE_OPENAI_BASE_URL: '', LOOPSCOPE_OPENAI_API_KEY: '' });
  });

  it('refuses what cannot run, in words', () => {
    const { providers } = config({});
    const choice = { kind: 'openai-compatible' as const, model: 'm' };
    expect(() => providers.check({ choice, support: realModelsOf('genkit-js') })).toThrow(/no OpenAI-compatible endpoint is set/);
    expect(() => providers.check({ choice, support: realModelsOf('genkit-go') })).toThrow(/genkit Go scenarios run on their scripted model only/);
    expect(() => providers.check({ choice: { kind: 'gemini', model: 'gemini-2.5-flash' }, support: realModelsOf('genkit-js') })).toThrow(/no Gemini key/);
    const withGemini = config({ GOOGLE_API_KEY: 'g' }).providers;
    expect(() => withGemini.check({ choice: { kind: 'gemini', model: 'gemini-2.5-flash' }, support: realModelsOf('ai-sdk') })).toThrow(/genkit scenarios only/);
    expect(() => withGemini.check({ choice: { kind: 'gemini', model: 'gemini-2.5-flash' }, support: realModelsOf('genkit-js') })).not.toThrow();
  });
});

describe('scripted answers on a real model', () => {
  it('go to the waiting calls by tool name, each call once, in the model’s order; an answer whose tool is not waiting stays as written', () => {
    const interrupts = [{ toolRequest: { name: 'askUser', ref: 'call_7' } }, { toolRequest: { name: 'askUser', ref: 'call_8' } }];
    const answer = retargetGenkitAnswer({
      answer: { respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }, { name: 'askUser', ref: 'meal-1', output: { answer: 'Veg' } }, { name: 'other', ref: 'x', output: 1 }] },
      interrupts,
    });
    expect(answer.respond?.map((part) => part.ref)).toEqual(['call_7', 'call_8', 'x']);
    const aiSdk = retargetAiSdkAnswer({ answer: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1' }] }, interrupts: [{ kind: 'approval', toolName: 'transferMoney', toolCallId: 'call_3' }] });
    expect(aiSdk).toEqual({ approve: [{ toolName: 'transferMoney', toolCallId: 'call_3' }] });
  });
});
