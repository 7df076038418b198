'use client';

import { useState, type FormEvent } from 'react';
import { savedTraceFileName, suggestSavedName } from '@/lib/spans/saved-trace-name';
import { apiJson, ApiError } from './api-client';

type Outcome = { kind: 'ok' | 'error'; text: string } | { kind: 'exists'; file: string };

/**
 * Saves traces as a named OTLP JSON file in traces/, to share or replay later. The suggested
 * name is always a valid one; a name that is taken asks before it overwrites the file.
 */
export function SaveTraceForm(props: { traceIds: string[]; suggestedName: string }) {
  const [name, setName] = useState(() => suggestSavedName(props.suggestedName));
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);

  const save = async (overwrite: boolean) => {
    setBusy(true);
    try {
      const result = await apiJson<{ file: string }>('/api/traces/save', { method: 'POST', body: { traceIds: props.traceIds, name, overwrite } });
      setOutcome({ kind: 'ok', text: `Saved as traces/${result.file.split('/').pop()}${overwrite ? ' (replaced the old file)' : ''}` });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ALREADY_EXISTS') setOutcome({ kind: 'exists', file: fileNameOf(name) });
      else setOutcome({ kind: 'error', text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };

  return (
    <form className="save-form" onSubmit={submit} aria-label="Save trace">
      <label>
        Save as <code>traces/</code>
        <input
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setOutcome(undefined);
          }}
          aria-label="File name"
          data-testid="save-name"
        />
      </label>
      <button type="submit" disabled={busy || props.traceIds.length === 0} data-testid="save-button">
        Save
      </button>
      {outcome?.kind === 'exists' ? (
        <span role="alert" className="error-text" data-testid="save-message">
          traces/{outcome.file} already exists.{' '}
          <button type="button" onClick={() => void save(true)} disabled={busy} data-testid="save-overwrite">
            Overwrite it
          </button>{' '}
          <button type="button" onClick={() => setOutcome(undefined)} data-testid="save-keep">
            Keep it
          </button>
        </span>
      ) : outcome ? (
        <span role="status" className={outcome.kind === 'ok' ? 'ok-text' : 'error-text'} data-testid="save-message">
          {outcome.text}
        </span>
      ) : null}
    </form>
  );
}

/** The file a name is saved as (the server's own rule), or the name itself while it is not valid. */
function fileNameOf(name: string): string {
  try {
    return savedTraceFileName(name);
  } catch {
    return name;
  }
}
