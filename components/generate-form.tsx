'use client';
/**
 * A generate in an attached genkit JS app, with its own model and any of its tools
 * (lib/runtimes/genkit-reflection/generate-form.ts builds the request). Run without the app's
 * Loopscope plugin answers when the generate ended (a link to its trace); with it, and for Step
 * and Breakpoints, the server answers at once with a run and the run page steps it.
 */
import { useRouter } from 'next/navigation';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { RunResponse } from '@/lib/contract/run-session';
import type { AttachedRuntime, RunActionResponse, RunActionResult } from '@/lib/contract/runtimes';
import { emptyGenerateDraft, generateChoices, generateRequestOf, type GenerateDraft, type GenerateFormProblem, type GenerateModeKind } from '@/lib/runtimes/genkit-reflection/generate-form';
import { ActionResultView } from './action-result-view';
import { apiJson } from './api-client';

const MODES: { kind: GenerateModeKind; label: string; hint: string }[] = [
  { kind: 'run', label: 'Run', hint: 'to the end' },
  { kind: 'step', label: 'Step', hint: 'pause before every model call and tool' },
  { kind: 'breakpoints', label: 'Breakpoints', hint: 'pause where you choose' },
];

/** Enter submits from any field but the prompt (a new line there; Ctrl/⌘+Enter submits), a button or a link. */
function submitOnEnter(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
  const target = event.target as HTMLElement;
  if (target.tagName === 'BUTTON' || target.tagName === 'A' || target.tagName === 'SUMMARY') return;
  if (target.tagName === 'TEXTAREA' && !(event.ctrlKey || event.metaKey)) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}

export function GenerateForm({ runtime }: { runtime: AttachedRuntime }) {
  const router = useRouter();
  const id = useId();
  const { models, tools } = useMemo(() => generateChoices(runtime.actions), [runtime.actions]);
  const [draft, setDraft] = useState<GenerateDraft>(() => emptyGenerateDraft(models));
  const [problems, setProblems] = useState<GenerateFormProblem[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [result, setResult] = useState<RunActionResult | undefined>();
  const [busy, setBusy] = useState(false);
  const change = (next: Partial<GenerateDraft>) => setDraft((current) => ({ ...current, ...next }));
  const problemOf = (field: GenerateFormProblem['field']) => problems.find((problem) => problem.field === field);

  const submit = async () => {
    const built = generateRequestOf({ runtimeId: runtime.id, draft, stepPlugin: runtime.stepPlugin });
    setProblems(built.problems);
    setFailure(undefined);
    setResult(undefined);
    if (!built.request) return;
    setBusy(true);
    try {
      if (built.request.mode) {
        const { run } = await apiJson<RunResponse>('/api/runs', { method: 'POST', body: built.request });
        router.push(`/runs/${run.runId}`);
        return;
      }
      setResult((await apiJson<RunActionResponse>('/api/runs', { method: 'POST', body: built.request })).result);
    } catch (error) {
      // The server's own sentence (e.g. the app has no Loopscope plugin: add `plugins: [loopscope()]`).
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const noPlugin = runtime.stepPlugin === false;
  return (
    <form
      className="generate-form"
      data-testid="generate-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onKeyDown={submitOnEnter}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id={`${id}-title`}>Generate with the app’s model and tools</h3>
      <div className="generate-grid">
        <label className="generate-field" htmlFor={`${id}-model`}>
          Model
        </label>
        <div>
          <select id={`${id}-model`} value={draft.model} onChange={(event) => change({ model: event.target.value })} aria-invalid={problemOf('model') ? true : undefined}>
            {models.map((model) => (
              <option key={model.key} value={model.name}>
                {model.name}
              </option>
            ))}
          </select>
        </div>
        <span className="generate-field" id={`${id}-tools`}>
          Tools
        </span>
        <div role="group" aria-labelledby={`${id}-tools`} className="generate-tools">
          {tools.length === 0 ? <span className="hint">The app defines no tools.</span> : null}
          {tools.map((tool) => (
            <label key={tool.key} title={tool.description}>
              <input
                type="checkbox"
                checked={draft.tools.includes(tool.name)}
                onChange={(event) => change({ tools: event.target.checked ? tools.map((each) => each.name).filter((name) => name === tool.name || draft.tools.includes(name)) : draft.tools.filter((name) => name !== tool.name) })}
              />{' '}
              {tool.name}
            </label>
          ))}
        </div>
        <label className="generate-field" htmlFor={`${id}-prompt`}>
          Prompt
        </label>
        <div>
          <textarea
            id={`${id}-prompt`}
            value={draft.prompt}
            rows={3}
            onChange={(event) => change({ prompt: event.target.value })}
            placeholder="Plan a trip to Kyoto for 4 nights"
            aria-invalid={problemOf('prompt') ? true : undefined}
            aria-describedby={`${id}-prompt-hint`}
          />
          <span className="hint" id={`${id}-prompt-hint`}>
            {' '}
            Sent as one user message. Ctrl+Enter (⌘+Enter) starts the generate.
          </span>
        </div>
        <span className="generate-field" id={`${id}-mode`}>
          Mode
        </span>
        <div role="radiogroup" aria-labelledby={`${id}-mode`} className="generate-modes">
          {MODES.map((mode) => (
            <label key={mode.kind}>
              <input type="radio" name={`${id}-mode`} value={mode.kind} checked={draft.mode === mode.kind} onChange={() => change({ mode: mode.kind })} /> {mode.label}{' '}
              <span className="hint">({mode.hint})</span>
            </label>
          ))}
          {noPlugin ? (
            <p className="hint" data-testid="generate-no-plugin">
              This app has no Loopscope step plugin: Step and Breakpoints need <code>plugins: [loopscope()]</code> in its <code>genkit({'{…}'})</code>.
            </p>
          ) : null}
        </div>
        {draft.mode === 'breakpoints' ? (
          <>
            <span className="generate-field" id={`${id}-breakpoints`}>
              Pause before
            </span>
            <div role="group" aria-labelledby={`${id}-breakpoints`} className="generate-breakpoints" data-testid="generate-breakpoints">
              {draft.tools.length === 0 ? <span className="hint">Tick tools above to break on them. </span> : null}
              {draft.tools.map((tool) => (
                <label key={tool}>
                  <input type="checkbox" checked={draft.breakTools.includes(tool)} onChange={(event) => change({ breakTools: event.target.checked ? [...draft.breakTools, tool] : draft.breakTools.filter((name) => name !== tool) })} /> tool{' '}
                  <code>{tool}</code>
                </label>
              ))}
              <label>
                <input type="checkbox" checked={draft.breakEveryModelCall} onChange={(event) => change({ breakEveryModelCall: event.target.checked })} /> every model call
              </label>
              {draft.breakEveryModelCall ? null : (
                <label>
                  model calls{' '}
                  <input
                    type="text"
                    inputMode="numeric"
                    value={draft.breakModelTurns}
                    onChange={(event) => change({ breakModelTurns: event.target.value })}
                    placeholder="e.g. 1, 3"
                    size={10}
                    aria-invalid={problemOf('breakModelTurns') ? true : undefined}
                  />
                </label>
              )}
            </div>
          </>
        ) : null}
      </div>
      {problems.length > 0 ? (
        <ul role="alert" className="problems" data-testid="generate-problems">
          {problems.map((problem) => (
            <li key={problem.field}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      <button type="submit" disabled={busy} data-testid="generate-submit">
        {busy ? 'Starting…' : draft.mode === 'run' ? 'Generate' : draft.mode === 'step' ? 'Generate, step by step' : 'Generate to breakpoints'}
      </button>
      {failure ? (
        <p role="alert" className="error-text" data-testid="generate-error">
          {failure}
        </p>
      ) : null}
      {result ? <ActionResultView result={result} /> : null}
    </form>
  );
}
