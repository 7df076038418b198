'use client';

import { useEffect, useState } from 'react';
import type { RunResponse, RunSession } from '@/lib/contract/run-session';
import { apiJson } from './api-client';
import { hasCommandModifier, isTypingTarget } from './keyboard';

/**
 * Stop for a run that is not stepped (the step panel has its own): the button, and key X while
 * the run goes on. Stop ends the run at once, whatever it runs — a tool that hangs included —
 * and answers with the run stopped, which the page shows before the event stream says it.
 */
export function StopRunButton(props: { run: RunSession; onStopped: (run: RunSession) => void }) {
  const { run, onStopped } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const stop = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await apiJson<RunResponse>(`/api/runs/${run.runId}/stop`, { method: 'POST', body: {} });
      onStopped(answer.run);
    } catch (stopError) {
      setError((stopError as Error).message);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target) || hasCommandModifier(event) || event.key.toLowerCase() !== 'x') return;
      event.preventDefault();
      void stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <>
      <button type="button" className="danger" disabled={busy} onClick={() => void stop()} data-testid="run-stop" title="Stop the run (X)">
        Stop <kbd>X</kbd>
      </button>
      {error ? (
        <span role="alert" className="error-text" data-testid="run-stop-error">
          {error}
        </span>
      ) : null}
    </>
  );
}
