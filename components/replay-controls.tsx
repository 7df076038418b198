'use client';

import { useState } from 'react';
import { reportSessionLost } from './api-client';
import type { TraceSource } from '@/lib/contract/trace-source';
import { useStartReplay } from './use-start-replay';

/** "Replay" for a saved file or captured traces: options, then the replay's own page. */
export function ReplayControls(props: { source: TraceSource }) {
  const [liveTools, setLiveTools] = useState(false);
  const [lenient, setLenient] = useState(false);
  const { start, busy, error } = useStartReplay();
  const replay = () => start({ source: props.source, liveTools, mode: lenient ? 'lenient' : 'strict' });

  return (
    <div className="replay-controls" data-testid="replay-controls">
      <label title="Run the tools registered in tools/ (tools/ai-sdk/ for an AI SDK recording, tools/go/ for a genkit Go one) instead of playing back the recorded outputs, and compare them with the recording">
        <input type="checkbox" checked={liveTools} onChange={(event) => setLiveTools(event.target.checked)} data-testid="replay-live-tools" /> live tools
      </label>
      <label title="Record every divergence and go on, instead of stopping at the first">
        <input type="checkbox" checked={lenient} onChange={(event) => setLenient(event.target.checked)} data-testid="replay-lenient" /> lenient
      </label>
      <button type="button" onClick={replay} disabled={busy} data-testid="replay-button" title="Replay this recording with the runtime that recorded it (genkit, the AI SDK's generateText, or genkit Go in the Go runner): models answer from the recorded spans">
        {busy ? 'Starting the replay…' : 'Replay'}
      </button>
      {error ? (
        <span role="alert" className="error-text" data-testid="replay-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** Downloads a standalone file that reproduces a saved run: TypeScript with plain genkit, or with `ai` alone for an AI SDK recording; a Go program with genkit Go alone for a genkit Go recording. */
export function ExportReproButton(props: { file: string }) {
  const [error, setError] = useState<string | undefined>();
  const download = async () => {
    setError(undefined);
    try {
      const response = await fetch(`/api/saved/${encodeURIComponent(props.file)}/repro`, { cache: 'no-store' });
      if (response.status === 401) reportSessionLost();
      const text = await response.text();
      if (!response.ok) throw new Error((JSON.parse(text) as { error?: { message?: string } }).error?.message ?? `The export failed (${response.status}).`);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const link = document.createElement('a');
      link.href = url;
      // The server names it (repro-<name>.ts); the link needs the name itself to download a blob.
      link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `repro-${props.file.replace(/\.json$/, '')}.ts`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (exportError) {
      setError((exportError as Error).message);
    }
  };
  return (
    <>
      <button type="button" onClick={download} data-testid="export-repro" title="A standalone file that reproduces this run: TypeScript with plain genkit (or ai alone, for an AI SDK recording), run with npx tsx; a Go program with genkit Go alone for a genkit Go recording, run with go run">
        Export repro
      </button>
      {error ? (
        <span role="alert" className="error-text">
          {error}
        </span>
      ) : null}
    </>
  );
}
