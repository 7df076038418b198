'use client';

import { useCallback, useEffect, useState } from 'react';
import type { ProviderChoice, ProviderModelsResponse, ProviderSettings } from '@/lib/contract/provider';
import { apiJson } from './api-client';

/** The select's value for a choice: `scripted`, `openai-compatible:<model>`, `gemini:<model>`. */
function valueOf(choice: ProviderChoice): string {
  return choice.kind === 'scripted' ? 'scripted' : `${choice.kind}:${choice.model}`;
}

function choiceOf(value: string): ProviderChoice {
  const colon = value.indexOf(':');
  const kind = value.slice(0, colon);
  const model = value.slice(colon + 1);
  if (kind === 'openai-compatible' || kind === 'gemini') return { kind, model };
  return { kind: 'scripted' };
}

/**
 * Which model the scenarios run on: their scripted model, a model the OpenAI-compatible endpoint
 * lists (`GET /models`, asked by the server), or Gemini when the server has a key. The endpoint
 * is a server setting (the key is sent, never shown: the server says only whether one is set).
 */
export function ModelPicker(props: { choice: ProviderChoice; onChoice: (choice: ProviderChoice) => void }) {
  const { onChoice } = props;
  const [settings, setSettings] = useState<ProviderSettings | undefined>();
  const [models, setModels] = useState<ProviderModelsResponse | undefined>();
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | undefined>();

  const loadModels = useCallback(async (current: ProviderSettings) => {
    if (!current.openaiCompatible.baseUrl) return setModels(undefined);
    try {
      setModels(await apiJson<ProviderModelsResponse>('/api/provider/models'));
    } catch (loadError) {
      setModels({ models: [], problem: (loadError as Error).message });
    }
  }, []);

  const adopt = useCallback(
    (next: ProviderSettings, first: boolean) => {
      setSettings(next);
      setBaseUrl(next.openaiCompatible.baseUrl ?? '');
      if (first) onChoice(next.defaultChoice);
      void loadModels(next);
    },
    [loadModels, onChoice],
  );

  useEffect(() => {
    apiJson<ProviderSettings>('/api/provider')
      .then((next) => adopt(next, true))
      .catch((loadError: Error) => setError(loadError.message));
  }, [adopt]);

  const save = async (clear: boolean) => {
    setError(undefined);
    try {
      const body = clear ? { baseUrl: null, apiKey: null } : { baseUrl, ...(apiKey ? { apiKey } : {}) };
      adopt(await apiJson<ProviderSettings>('/api/provider', { method: 'POST', body }), false);
      setApiKey('');
      if (clear) onChoice({ kind: 'scripted' });
    } catch (saveError) {
      setError((saveError as Error).message);
    }
  };

  const options: { value: string; label: string }[] = [{ value: 'scripted', label: "Scripted (the scenario's script)" }];
  for (const model of models?.models ?? []) options.push({ value: `openai-compatible:${model}`, label: `${model} (OpenAI-compatible endpoint)` });
  for (const model of settings?.gemini.models ?? []) options.push({ value: `gemini:${model}`, label: `${model} (Gemini, genkit scenarios)` });
  // The default from LOOPSCOPE_MODEL stays choosable even before (or without) a listing.
  if (!options.some((option) => option.value === valueOf(props.choice))) options.push({ value: valueOf(props.choice), label: valueOf(props.choice) });

  return (
    <div className="model-picker" data-testid="model-picker">
      <label>
        Model:{' '}
        <select value={valueOf(props.choice)} onChange={(event) => onChoice(choiceOf(event.target.value))} data-testid="model-select" aria-label="Model the scenarios run on">
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>{' '}
      {settings?.openaiCompatible.baseUrl ? (
        <button type="button" className="secondary" onClick={() => settings && void loadModels(settings)} data-testid="refresh-models">
          Refresh models
        </button>
      ) : null}
      {models?.problem ? (
        <p className="error-text" role="alert" data-testid="models-problem">
          {models.problem}
        </p>
      ) : null}
      <details>
        <summary data-testid="endpoint-summary">OpenAI-compatible endpoint{settings?.openaiCompatible.baseUrl ? `: ${settings.openaiCompatible.baseUrl}` : ' (not set)'}</summary>
        <p className="hint">
          Ollama, llama.cpp, vLLM, LM Studio…: the API root, e.g. <code>http://127.0.0.1:11434/v1</code>. A scenario run on one of its models keeps the scenario&apos;s prompt and
          tools; genkit calls it through <code>@genkit-ai/compat-oai</code>, the AI SDK through <code>@ai-sdk/openai-compatible</code>. Saving replaces the runners.
        </p>
        <label>
          Base URL <input type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} data-testid="endpoint-url" placeholder="http://127.0.0.1:11434/v1" />
        </label>{' '}
        <label>
          API key{' '}
          <input
            type="password"
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            data-testid="endpoint-key"
            autoComplete="off"
            placeholder={settings?.openaiCompatible.apiKeySet ? 'set (leave empty to keep)' : 'none'}
          />
        </label>{' '}
        <button type="button" onClick={() => void save(false)} data-testid="endpoint-save">
          Save
        </button>{' '}
        <button type="button" className="secondary" onClick={() => void save(true)} data-testid="endpoint-clear" disabled={!settings?.openaiCompatible.baseUrl}>
          Clear
        </button>
        {settings ? (
          <p className="hint" data-testid="endpoint-source">
            set {settings.openaiCompatible.source === 'env' ? 'by LOOPSCOPE_OPENAI_BASE_URL' : settings.openaiCompatible.source === 'ui' ? 'here' : 'nowhere yet'}
            {settings.openaiCompatible.apiKeySet ? ' · API key set' : ' · no API key'}
            {settings.gemini.available ? ' · Gemini key set' : ''}
          </p>
        ) : null}
      </details>
      {error ? (
        <p role="alert" className="error-text" data-testid="provider-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
