'use client';

import { useState, type FormEvent } from 'react';
import { apiJson } from './api-client';

/** Saves traces as a named OTLP JSON file in traces/, to share or replay later. */
export function SaveTraceForm(props: { traceIds: string[]; suggestedName: string }) {
  const [name, setName] = useState(props.suggestedName);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const result = await apiJson<{ file: string }>('/api/traces/save', { method: 'POST', body: { traceIds: props.traceIds, name } });
      setMessage({ kind: 'ok', text: `Saved as traces/${result.file.split('/').pop()}` });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="save-form" onSubmit={submit} aria-label="Save trace">
      <label>
        Save as <code>traces/</code>
        <input value={name} onChange={(event) => setName(event.target.value)} aria-label="File name" data-testid="save-name" />
      </label>
      <button type="submit" disabled={busy || props.traceIds.length === 0} data-testid="save-button">
        Save
      </button>
      {message ? (
        <span role="status" className={message.kind === 'ok' ? 'ok-text' : 'error-text'} data-testid="save-message">
          {message.text}
        </span>
      ) : null}
    </form>
  );
}
