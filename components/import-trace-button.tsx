'use client';

import { useRef, useState, type ChangeEvent } from 'react';
import { apiJson } from './api-client';

/** Imports an OTLP JSON / JSONL file or a Genkit Dev UI trace file (`.genkit/traces/<id>`). */
export function ImportTraceButton() {
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setMessage({ kind: 'ok', text: `Importing ${file.name}…` });
    try {
      const result = await apiJson<{ traceIds: string[]; spanCount: number }>('/api/traces/import', {
        method: 'POST',
        body: { fileName: file.name, text: await file.text() },
      });
      setMessage({ kind: 'ok', text: `Imported ${result.spanCount} spans in ${result.traceIds.length} trace(s) from ${file.name}.` });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  };
  return (
    <span className="import">
      <input ref={input} type="file" accept=".json,.jsonl,application/json" hidden onChange={onChange} data-testid="import-input" />
      <button type="button" className="secondary" onClick={() => input.current?.click()} data-testid="import-button">
        Import a trace file…
      </button>
      {message ? (
        <span role="status" className={message.kind === 'ok' ? 'ok-text' : 'error-text'} data-testid="import-message">
          {' '}
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
