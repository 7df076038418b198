'use client';

import { useState } from 'react';
import type { TraceSource } from '@/lib/contract/trace-source';
import { useStartReplay } from './use-start-replay';

/**
 * Fork: edit what a finished tool call returned or what a model turn answered, and replay
 * the recording from there (leniently: what follows shows what the edit changes).
 */
export function ForkEditor(props: { source: TraceSource; kind: 'tool' | 'model'; traceId: string; spanId: string; initial: unknown }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(props.initial ?? null, null, 2));
  const [liveTools, setLiveTools] = useState(true);
  const { start, busy, error } = useStartReplay();

  let parsed: unknown;
  let parseError: string | undefined;
  try {
    parsed = JSON.parse(text);
    if (props.kind === 'model' && (typeof parsed !== 'object' || parsed === null || (parsed as { role?: unknown }).role !== 'model' || !Array.isArray((parsed as { content?: unknown }).content))) {
      parseError = 'A model answer is a message: {"role": "model", "content": [ {"text": …} or {"toolRequest": …} ]}.';
    }
  } catch (jsonError) {
    parseError = `Not valid JSON: ${(jsonError as Error).message}`;
  }

  const fork = () => {
    const span = `${props.traceId}:${props.spanId}`;
    return start({ source: props.source, liveTools, fork: props.kind === 'tool' ? { kind: 'tool', span, output: parsed } : { kind: 'model', span, message: parsed } });
  };

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} data-testid="open-fork">
        Fork from here…
      </button>
    );
  }
  return (
    <section className="detail-block fork-editor" data-testid="fork-editor">
      <h3>Fork: {props.kind === 'tool' ? 'what this tool returns' : 'what the model answers'}</h3>
      <p className="hint">The recording is replayed up to here, this answer replaces the recorded one, and the run goes on {liveTools ? 'with the local tools' : 'with the recorded tool outputs'} and the recorded model answers; every place the edit changes is listed.</p>
      <textarea value={text} onChange={(event) => setText(event.target.value)} aria-label="Forked answer (JSON)" data-testid="fork-json" spellCheck={false} />
      {parseError ? (
        <p className="error-text" role="alert" data-testid="fork-error">
          {parseError}
        </p>
      ) : null}
      <label>
        <input type="checkbox" checked={liveTools} onChange={(event) => setLiveTools(event.target.checked)} /> run the local tools after the fork
      </label>{' '}
      <button type="button" onClick={fork} disabled={busy || parseError !== undefined} data-testid="fork-run">
        {busy ? 'Starting…' : 'Fork and run'}
      </button>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
    </section>
  );
}
