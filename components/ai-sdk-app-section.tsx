'use client';
/**
 * An AI SDK app that uses `loopscope/ai-sdk` (lib/contract/attach-ai-sdk.ts), on the Apps page:
 * the mode its next `generateText` / `streamText` calls start in — Run, Step, or Breakpoints on
 * its tools and model calls — set here before the app makes them (the app starts its calls
 * itself), and its latest calls as runs, each a link to its run page.
 */
import Link from 'next/link';
import { useId, useState } from 'react';
import type { AiSdkAppView } from '@/lib/contract/attach-ai-sdk';
import type { RunMode } from '@/lib/contract/run-mode';
import { apiJson } from './api-client';
import { StatusPill } from './status-pill';

const MODES: { kind: RunMode['kind']; label: string; hint: string }[] = [
  { kind: 'run', label: 'Run', hint: 'to the end' },
  { kind: 'step', label: 'Step', hint: 'pause before every model call and tool' },
  { kind: 'breakpoints', label: 'Breakpoints', hint: 'pause where you choose' },
];

export function AiSdkAppSection({ app, onChanged }: { app: AiSdkAppView; onChanged: (app: AiSdkAppView) => void }) {
  const id = useId();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const breakpoints = app.mode.breakpoints ?? { tools: [], modelTurns: [] };
  const setMode = async (mode: RunMode) => {
    setBusy(true);
    setFailure(undefined);
    try {
      onChanged((await apiJson<{ app: AiSdkAppView }>('/api/runtimes/ai-sdk-mode', { method: 'POST', body: { name: app.name, mode } })).app);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const withBreakpoints = (patch: Partial<typeof breakpoints>) => void setMode({ kind: 'breakpoints', breakpoints: { ...breakpoints, ...patch } });
  return (
    <section aria-label={`AI SDK app ${app.name}`} data-testid="ai-sdk-app" data-app={app.name}>
      <h2>
        {app.name} <span className="hint">(Vercel AI SDK{app.pid ? `, pid ${app.pid}` : ''} · loopscope/ai-sdk)</span>
      </h2>
      <p className="hint">The app starts its own calls; each is a run here. Its next calls start in this mode:</p>
      <div role="radiogroup" aria-labelledby={`${id}-mode`} className="generate-modes" data-testid="ai-sdk-app-mode">
        <span id={`${id}-mode`} className="generate-field">
          Mode
        </span>
        {MODES.map((mode) => (
          <label key={mode.kind}>
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode.kind}
              checked={app.mode.kind === mode.kind}
              disabled={busy}
              onChange={() => void setMode(mode.kind === 'breakpoints' ? { kind: 'breakpoints', breakpoints } : { kind: mode.kind })}
            />{' '}
            {mode.label} <span className="hint">({mode.hint})</span>
          </label>
        ))}
      </div>
      {app.mode.kind === 'breakpoints' ? (
        <div role="group" aria-label="Pause before" className="generate-breakpoints" data-testid="ai-sdk-app-breakpoints">
          {app.tools.length === 0 ? <span className="hint">Its tools are listed once it made a call. </span> : null}
          {app.tools.map((tool) => (
            <label key={tool}>
              <input
                type="checkbox"
                disabled={busy}
                checked={breakpoints.tools.includes(tool)}
                onChange={(event) => withBreakpoints({ tools: event.target.checked ? [...breakpoints.tools, tool] : breakpoints.tools.filter((name) => name !== tool) })}
              />{' '}
              tool <code>{tool}</code>
            </label>
          ))}
          <label>
            <input type="checkbox" disabled={busy} checked={breakpoints.modelTurns === 'all'} onChange={(event) => withBreakpoints({ modelTurns: event.target.checked ? 'all' : [] })} /> every model call
          </label>
        </div>
      ) : null}
      {failure ? (
        <p role="alert" className="error-text">
          {failure}
        </p>
      ) : null}
      <h3>Its calls</h3>
      {app.runs.length === 0 ? (
        <p className="empty">No call yet: make your app call generateText or streamText.</p>
      ) : (
        <ul className="action-list" data-testid="ai-sdk-app-runs">
          {app.runs.map((run) => (
            <li key={run.runId}>
              <Link href={`/runs/${run.runId}`}>{run.label}</Link> <StatusPill status={run.status} testId="ai-sdk-app-run-status" /> <span className="hint">{new Date(run.startedAt).toLocaleTimeString()}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
