'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import type { ResumeContextResponse, ResumeContextView } from '@/lib/contract/resume-context';

import type { TraceSource } from '@/lib/contract/trace-source';
import { apiJson } from './api-client';
import { answersFromDrafts, defaultDraft, label, type AnswerDraft } from './resume-answer-drafts';
import { useResumeCheck } from './use-resume-check';
import { runtimeView } from '@/lib/runtimes/index';

/**
 * The resume workbench: every request of the paused call, an answer per paused request in the
 * kinds its runtime takes (genkit: respond / restart; the AI SDK: approve / deny / respond;
 * LangGraph and Google ADK also a resume value — named by the server from the call's dialect),
 * checked live against that runtime's rules — the verdict: accepted, refused (each broken rule),
 * or unchecked (each part the rules cannot check here, saying why) — the exact payload and the
 * same as the app's own code, and Resume (or, when the app that made the call waits for the
 * answer, Send it to the app; for a runtime Loopscope does not run, why not: the code is the
 * answer to paste).
 */
export function ResumeWorkbench(props: { generateSpanId: string; source: TraceSource }) {
  // What the interrupted generate asked, read from its spans on the server (the page holds none).
  const [contextResult, setContextResult] = useState<{ generateSpanId?: string; context?: ResumeContextView; error?: string }>({});
  const sourceKey = JSON.stringify(props.source);
  const [result, setResult] = useState<{ runId?: string; error?: string } | undefined>();
  // From the moment an answer is sent, the workbench keeps what it showed: a live run's traces grow
  // with the answer's (not all stored yet), and the paused call it was opened on no longer waits.
  const sending = useRef(false);
  // The source the answer was sent for: the check keeps checking that one (the run's traces grow meanwhile).
  const [sentSource, setSentSource] = useState<TraceSource | undefined>();
  useEffect(() => {
    if (sending.current) return;
    let cancelled = false;
    const generateSpanId = props.generateSpanId;
    apiJson<ResumeContextResponse>('/api/resume/context', { method: 'POST', body: { source: JSON.parse(sourceKey) as unknown, generateSpanId } }).then(
      (answer) => !cancelled && !sending.current && setContextResult({ generateSpanId, context: answer.context }),
      // A reread that fails (a live run's newest trace not stored yet) keeps the call it already shows.
      (error: Error) => !cancelled && setContextResult((current) => (current.generateSpanId === generateSpanId && current.context ? current : { generateSpanId, error: error.message })),
    );
    return () => {
      cancelled = true;
    };
  }, [sourceKey, props.generateSpanId]);
  const context = contextResult.generateSpanId === props.generateSpanId ? contextResult.context : undefined;
  const contextError = contextResult.generateSpanId === props.generateSpanId ? contextResult.error : undefined;
  const [drafts, setDrafts] = useState<Record<string, AnswerDraft>>({});
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);

  const draftOf = (key: string): AnswerDraft => drafts[key] ?? defaultDraft(context?.requests.find((candidate) => label(candidate) === key), context?.answerKinds ?? []);
  const update = (key: string, patch: Partial<AnswerDraft>) => setDrafts((current) => ({ ...current, [key]: { ...draftOf(key), ...patch } }));

  const { answers, parseErrors } = useMemo(
    () => answersFromDrafts({ requests: context?.requests ?? [], draftOf }),
    // draftOf reads drafts and context.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [drafts, context],
  );
  const { validation, checkError, shownPayload } = useResumeCheck({ source: sentSource ?? props.source, generateSpanId: props.generateSpanId, answers, ready: context !== undefined && parseErrors.length === 0 });

  if (!context) {
    return contextError ? (
      <p className="error-text" data-testid="workbench-unavailable">
        {contextError}
      </p>
    ) : (
      <p className="empty" data-testid="workbench-loading">
        Reading the interrupted generate…
      </p>
    );
  }
  // Text that is not JSON is named as such; the rules are checked once every answer parses.
  const errors = parseErrors.length > 0 ? parseErrors : [...(checkError ? [checkError] : []), ...(validation?.errors.map((issue) => issue.message) ?? [])];
  const warnings = validation?.warnings.map((issue) => issue.message) ?? [];
  // What the rules cannot check (genkit Go: restart data for a resume type the trace does not record): the runtime may take it or refuse it.
  const unchecked = validation?.unchecked.map((issue) => issue.message) ?? [];
  const checking = parseErrors.length === 0 && !validation && !checkError;
  const canResume = validation !== undefined && errors.length === 0 && (warnings.length === 0 || confirmed) && !busy;

  const resume = async () => {
    setBusy(true);
    setResult(undefined);
    sending.current = true;
    setSentSource(props.source);
    try {
      const response = await apiJson<{ run: { runId: string } }>('/api/resume', {
        method: 'POST',
        body: { source: props.source, generateSpanId: props.generateSpanId, ...answers, confirmWarnings: confirmed },
      });
      setResult({ runId: response.run.runId });
    } catch (error) {
      sending.current = false;
      setSentSource(undefined);
      setResult({ error: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="workbench" data-testid="resume-workbench" aria-label="Resume workbench">
      <h3>Answer the paused calls</h3>
      <p className="hint">
        {context.runtimeTitle} · {context.model ?? 'model not recorded'}
      </p>
      <ul className="workbench-requests">
        {context.requests.map((request) => {
          const key = label(request);
          const draft = draftOf(key);
          const fields = new Set(context.answerKinds.find((kind) => kind.kind === draft.mode)?.fields ?? []);
          return (
            <li key={key} data-testid="workbench-request" data-request={key} data-state={request.state} data-waiting-for={request.waitingFor}>
              <strong>{key}</strong> <code>{JSON.stringify(request.input)}</code>
              {request.state === 'pending' ? <p className="hint">Already finished: its pendingOutput is reused, it needs no answer.</p> : null}
              {request.state === 'done' ? <p className="hint">Not paused: it ran (or needs no answer).</p> : null}
              {request.state === 'interrupted' ? (
                <>
                  {request.pausedAs ? (
                    <p className="hint" data-testid="workbench-paused-as">
                      Paused: {request.pausedAs}
                    </p>
                  ) : null}
                  {request.interruptMetadata !== undefined ? <p className="hint">Interrupt metadata: {JSON.stringify(request.interruptMetadata)}</p> : null}
                  {request.waitingFor ? (
                    <p className="hint" data-testid="workbench-waiting-for">
                      Waits for {request.waitingFor === 'approval' ? 'an approval' : request.waitingFor === 'value' ? 'a resume value' : 'the caller’s result'}: {request.waitingEvidence}
                    </p>
                  ) : context.answerKinds.length > 2 ? (
                    <p className="hint">The trace does not tell whether it waits for an approval or for the result of a tool without execute.</p>
                  ) : null}
                  <div className="workbench-kinds" role="radiogroup" aria-label={`Answer for ${key}`}>
                    {context.answerKinds.map((kind) => (
                      <label key={kind.kind}>
                        <input type="radio" name={`mode-${key}`} checked={draft.mode === kind.kind} onChange={() => update(key, { mode: kind.kind })} data-testid={`workbench-mode-${kind.kind}`} /> {kind.label}{' '}
                      </label>
                    ))}
                  </div>
                  {fields.has('output') ? (
                    <textarea aria-label={`Output for ${key}`} rows={4} value={draft.output} onChange={(event) => update(key, { output: event.target.value })} data-testid="workbench-output" />
                  ) : null}
                  {fields.has('value') ? (
                    <textarea aria-label={`Resume value for ${key}`} rows={4} value={draft.value} onChange={(event) => update(key, { value: event.target.value })} data-testid="workbench-value" />
                  ) : null}
                  {fields.has('reason') ? (
                    <input
                      type="text"
                      aria-label={`Reason for ${key}`}
                      placeholder={draft.mode === 'deny' ? 'Why not (the model reads it)' : 'Reason (optional)'}
                      value={draft.reason}
                      onChange={(event) => update(key, { reason: event.target.value })}
                      data-testid="workbench-reason"
                    />
                  ) : null}
                  {fields.has('resumed') ? (
                    <>
                      <textarea aria-label={`Resumed metadata for ${key}`} rows={2} value={draft.resumed} onChange={(event) => update(key, { resumed: event.target.value })} data-testid="workbench-resumed" />
                      {request.resumedAs ? (
                        <p className="hint" data-testid="workbench-resumed-as">
                          {request.resumedAs}
                        </p>
                      ) : null}
                    </>
                  ) : null}
                  {fields.has('replaceInput') ? (
                    <>
                      <label>
                        <input type="checkbox" checked={draft.replace} onChange={(event) => update(key, { replace: event.target.checked })} data-testid="workbench-replace" /> replace the input
                      </label>
                      {draft.replace ? (
                        <textarea aria-label={`Replacement input for ${key}`} rows={3} value={draft.replaceInput} onChange={(event) => update(key, { replaceInput: event.target.value })} data-testid="workbench-replace-input" />
                      ) : null}
                    </>
                  ) : null}
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
      {checking ? (
        <p className="hint" data-testid="workbench-checking">
          Checking against {context.runtimeTitle}’s rules…
        </p>
      ) : errors.length > 0 ? (
        <ul className="workbench-issues error-text">
          {errors.map((message) => (
            <li key={message} data-testid="workbench-error">
              {message}
            </li>
          ))}
        </ul>
      ) : validation?.verdict === 'unchecked' ? (
        <div className="workbench-issues warning" data-testid="workbench-verdict-unchecked">
          <p>{context.runtimeTitle} may accept or refuse this answer: part of it cannot be checked without running it.</p>
          <ul>
            {unchecked.map((message) => (
              <li key={message} data-testid="workbench-unchecked">
                {message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="ok-text" data-testid="workbench-ok">
          {context.runtimeTitle} would accept this answer.
        </p>
      )}
      {warnings.length > 0 ? (
        <div className="workbench-issues warning">
          <ul>
            {warnings.map((message) => (
              <li key={message} data-testid="workbench-warning">
                {message}
              </li>
            ))}
          </ul>
          <label>
            <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} data-testid="workbench-confirm" /> I understand; resume anyway
          </label>
        </div>
      ) : null}
      {validation?.payload.notes?.map((note) => (
        <p key={note} className="hint" data-testid="workbench-note">
          {note}
        </p>
      ))}
      <details open={runtimeView(context.dialect).showsNextMessages ? true : undefined}>
        <summary>{shownPayload?.answer !== undefined ? `The answer ${context.runtimeTitle} gets` : shownPayload?.resume ? 'Payload (messages + resume)' : 'The next call’s messages'}</summary>
        <pre data-testid="workbench-payload" data-checked={validation ? 'true' : 'false'}>
          {shownPayload ? JSON.stringify(shownPayload.answer !== undefined ? shownPayload.answer : shownPayload.resume ? { messages: shownPayload.messages, resume: shownPayload.resume } : shownPayload.messages, null, 2) : ''}
        </pre>
      </details>
      <details open={context.snippetLanguage !== 'TypeScript' || context.runsElsewhere ? true : undefined}>
        <summary>As {context.snippetLanguage} code</summary>
        <pre data-testid="workbench-snippet" data-checked={validation ? 'true' : 'false'}>
          {validation?.snippet ?? ''}
        </pre>
        <button type="button" className="secondary" disabled={!validation} onClick={() => validation && void navigator.clipboard?.writeText(validation.snippet)} data-testid="workbench-copy-ts">
          Copy as {context.snippetLanguage}
        </button>
      </details>
      {context.runsElsewhere ? (
        <p className="hint" data-testid="workbench-runs-elsewhere">
          {context.runsElsewhere}
        </p>
      ) : (
        <>
          {context.sendsToApp ? (
            <p className="hint" data-testid="workbench-sends-to-app">
              The app <strong>{context.sendsToApp.app}</strong> waits for this answer: it is sent there, and its next call goes on as the same run, with the app’s own tools.
            </p>
          ) : null}
          <button type="button" disabled={!canResume} onClick={() => void resume()} data-testid="workbench-resume">
            {context.sendsToApp ? `Send this answer to ${context.sendsToApp.app}` : 'Resume with the local tools'}
          </button>
        </>
      )}
      {result?.runId && context.sendsToApp ? (
        <p role="status" className="ok-text" data-testid="workbench-result">
          Sent to {context.sendsToApp.app}: <a href={`/runs/${result.runId}`}>its run</a> goes on with the answer.
        </p>
      ) : result?.runId ? (
        <p role="status" className="ok-text" data-testid="workbench-result">
          Resumed: <a href={`/runs/${result.runId}`}>open the new run</a> (its trace links back to this interrupt).
        </p>
      ) : null}
      {result?.error ? (
        <p role="alert" className="error-text" data-testid="workbench-result-error">
          {result.error}
        </p>
      ) : null}
    </section>
  );
}
