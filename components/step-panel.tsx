'use client';

import { useEffect, useState } from 'react';
import type { PauseAction, PauseDecision, PauseInfo } from '@/lib/contract/pause';
import type { Breakpoints } from '@/lib/contract/run-mode';
import type { RunSession } from '@/lib/contract/run-session';
import type { ListedTool } from '@/lib/contract/tool-info';
import { apiJson } from './api-client';
import { hasCommandModifier, isTypingTarget } from './keyboard';

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${(error as Error).message}` };
  }
}

/** What a pause from a runner that does not say (an older one) takes: genkit's decisions. */
const GENKIT_ACTIONS: Record<PauseInfo['kind'], PauseAction[]> = {
  model: ['continue', 'replace-answer'],
  tool: ['continue', 'edit-input', 'answer', 'interrupt', 'fail'],
};

/** One pause and what can be done there: the decisions its runtime takes (the pause lists them). */
function PauseCard(props: { runId: string; pause: PauseInfo; tools: ListedTool[] }) {
  const { runId, pause, tools } = props;
  const takes = (action: PauseAction) => (pause.actions ?? GENKIT_ACTIONS[pause.kind]).includes(action);
  const [request, setRequest] = useState(JSON.stringify(pause.request ?? [], null, 2));
  const [error, setError] = useState<{ message: string; decision?: PauseDecision } | undefined>();
  const [busy, setBusy] = useState(false);
  const [parts, setParts] = useState(JSON.stringify([{ text: 'Hand-written answer.' }], null, 2));
  const [picked, setPicked] = useState(tools[0]?.name ?? '');
  const pausedTool = tools.find((tool) => tool.name === pause.tool?.name);
  const [input, setInput] = useState(JSON.stringify(pause.tool?.input ?? {}, null, 2));
  // Pre-filled from the tool's output schema (the server built the example).
  const [output, setOutput] = useState(JSON.stringify(pausedTool?.outputExample ?? {}, null, 2));
  /** Adds a request for a registered tool, its input pre-filled from the tool's input schema (built on the server). */
  const addRequest = () => {
    const tool = tools.find((candidate) => candidate.name === picked);
    if (!tool) return;
    const parsed = parseJson(parts);
    const current = parsed.ok && Array.isArray(parsed.value) ? parsed.value : [];
    const ref = `hand-${current.filter((part) => typeof part === 'object' && part !== null && 'toolRequest' in part).length + 1}`;
    setParts(JSON.stringify([...current, { toolRequest: { name: tool.name, ref, input: tool.inputExample ?? {} } }], null, 2));
  };
  const [metadata, setMetadata] = useState('{ "reason": "paused in Loopscope" }');
  const [failMessage, setFailMessage] = useState('Failed here by hand.');

  const send = async (decision: PauseDecision) => {
    setBusy(true);
    setError(undefined);
    try {
      await apiJson(`/api/runs/${runId}/pauses/${pause.pauseId}`, { method: 'POST', body: { decision } });
    } catch (sendError) {
      const message = (sendError as Error).message;
      // A schema problem can be sent anyway, on purpose, to see genkit's reaction.
      const forceable = 'parts' in decision || 'input' in decision || 'output' in decision || 'request' in decision;
      setError({ message, decision: forceable && /schema|no tool named/i.test(message) ? { ...decision, force: true } as PauseDecision : undefined });
    } finally {
      setBusy(false);
    }
  };
  const sendJson = (text: string, build: (value: unknown) => PauseDecision) => {
    const parsed = parseJson(text);
    if (!parsed.ok) setError({ message: parsed.error });
    else void send(build(parsed.value));
  };

  const title = pause.kind === 'model' ? `Paused before model call ${pause.modelTurn}` : `Paused before tool ${pause.tool?.name}${pause.tool?.ref ? `#${pause.tool.ref}` : ''}`;
  return (
    <li className="pause-card" data-testid="pause-card" data-kind={pause.kind} data-pause-id={pause.pauseId} data-tool={pause.tool?.name}>
      <h3>{title}</h3>
      {pause.tool ? <pre className="pause-input">{JSON.stringify(pause.tool.input, null, 2)}</pre> : null}
      <div className="pause-actions">
        <button type="button" disabled={busy} onClick={() => void send({ action: 'continue' })} data-testid="pause-continue">
          Continue
        </button>
      </div>
      {pause.kind === 'model' && takes('edit-request') ? (
        <details>
          <summary>Edit the request</summary>
          <p className="hint">The messages the model is about to be sent, as the runtime holds them. The model is called with these instead.</p>
          <textarea value={request} onChange={(event) => setRequest(event.target.value)} rows={10} aria-label="Model request" data-testid="pause-request" />
          <button type="button" disabled={busy} onClick={() => sendJson(request, (value) => ({ action: 'edit-request', request: value as never }))} data-testid="pause-edit-request">
            Call the model with this request
          </button>
        </details>
      ) : null}
      {pause.kind === 'model' && takes('replace-answer') ? (
        <details>
          <summary>Replace the model&apos;s answer</summary>
          <p className="hint">Parts as JSON: text and tool requests ({'{ "toolRequest": { "name", "ref", "input" } }'}). Recorded as loopscope/hand-written.</p>
          <div className="tool-picker">
            <select value={picked} onChange={(event) => setPicked(event.target.value)} aria-label="Registered tool" data-testid="pause-tool-picker">
              {tools.map((tool) => (
                <option key={tool.name} value={tool.name}>
                  {tool.name}
                </option>
              ))}
            </select>
            <button type="button" className="secondary" onClick={addRequest} data-testid="pause-add-request">
              Add a request for it
            </button>
          </div>
          <textarea value={parts} onChange={(event) => setParts(event.target.value)} rows={8} aria-label="Hand-written parts" data-testid="pause-parts" />
          <button type="button" disabled={busy} onClick={() => sendJson(parts, (value) => ({ action: 'replace-answer', parts: value as never }))} data-testid="pause-replace">
            Answer with these parts
          </button>
        </details>
      ) : null}
      {pause.kind === 'tool' && takes('edit-input') ? (
        <details>
          <summary>Edit the input</summary>
          <textarea value={input} onChange={(event) => setInput(event.target.value)} rows={5} aria-label="Tool input" data-testid="pause-input" />
          <button type="button" disabled={busy} onClick={() => sendJson(input, (value) => ({ action: 'edit-input', input: value as never }))} data-testid="pause-edit">
            Run with this input
          </button>
        </details>
      ) : null}
      {pause.kind === 'tool' && takes('answer') ? (
        <details>
          <summary>Answer without running</summary>
          <textarea value={output} onChange={(event) => setOutput(event.target.value)} rows={5} aria-label="Tool output" data-testid="pause-output" />
          <button type="button" disabled={busy} onClick={() => sendJson(output, (value) => ({ action: 'answer', output: value as never }))} data-testid="pause-answer">
            Use this output
          </button>
        </details>
      ) : null}
      {pause.kind === 'tool' && takes('interrupt') ? (
        <details>
          <summary>Interrupt here</summary>
          <textarea value={metadata} onChange={(event) => setMetadata(event.target.value)} rows={3} aria-label="Interrupt metadata" data-testid="pause-metadata" />
          <button type="button" disabled={busy} onClick={() => sendJson(metadata, (value) => ({ action: 'interrupt', metadata: value as never }))} data-testid="pause-interrupt">
            Interrupt (a real genkit interrupt)
          </button>
        </details>
      ) : null}
      {takes('fail') ? (
        <details>
          <summary>Fail here</summary>
          <input value={failMessage} onChange={(event) => setFailMessage(event.target.value)} aria-label="Error message" data-testid="pause-fail-message" />
          <button type="button" disabled={busy} onClick={() => void send({ action: 'fail', message: failMessage })} data-testid="pause-fail">
            {pause.kind === 'model' ? 'Fail the model call' : 'Fail the tool'}
          </button>
        </details>
      ) : null}
      {error ? (
        <p role="alert" className="error-text" data-testid="pause-error">
          {error.message}{' '}
          {error.decision ? (
            <button type="button" className="secondary" onClick={() => void send(error.decision!)} data-testid="pause-force">
              Send anyway
            </button>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

/** Step controls of a run: where it is paused, Step / Continue / Stop, and its breakpoints. */
export function StepPanel(props: { run: RunSession; tools: ListedTool[]; scenarioTools: string[]; onRun?: (run: RunSession) => void }) {
  const { run } = props;
  const [error, setError] = useState<string | undefined>();
  const running = run.status === 'running';
  const act = async (action: 'step' | 'continue' | 'stop') => {
    setError(undefined);
    try {
      const answer = await apiJson<{ run?: RunSession }>(`/api/runs/${run.runId}/${action}`, { method: 'POST', body: {} });
      // Stop answers with the run, stopped: shown at once, before the event stream says it.
      if (action === 'stop' && answer.run) props.onRun?.(answer.run);
    } catch (actionError) {
      setError((actionError as Error).message);
    }
  };
  const breakpoints: Breakpoints = run.mode.breakpoints ?? { tools: [], modelTurns: [] };
  const setBreakpoints = async (next: Breakpoints) => {
    try {
      await apiJson(`/api/runs/${run.runId}/breakpoints`, { method: 'POST', body: next });
    } catch (breakpointError) {
      setError((breakpointError as Error).message);
    }
  };

  // Keyboard: S step, C continue, X stop — not while typing in a field.
  useEffect(() => {
    if (!running) return;
    const onKey = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target) || hasCommandModifier(event)) return;
      const action = ({ s: 'step', c: 'continue', x: 'stop' } as const)[event.key.toLowerCase() as 's' | 'c' | 'x'];
      if (!action) return;
      event.preventDefault();
      void act(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const toolsOfScenario = props.tools.filter((tool) => props.scenarioTools.includes(tool.name));
  return (
    <section className="step-panel" data-testid="step-panel" aria-label="Step controls">
      <div className="step-head">
        <strong>{run.mode.kind === 'step' ? 'Step mode' : run.mode.kind === 'breakpoints' ? 'Breakpoints' : 'Run mode'}</strong>
        <span className="hint" data-testid="step-state">
          {!running ? ` — the run is ${run.status}` : run.pauses.length > 0 ? ` — paused at ${run.pauses.length} step(s)` : ' — running'}
        </span>
        <span className="step-buttons">
          <button type="button" disabled={!running || run.pauses.length === 0} onClick={() => void act('step')} data-testid="step-button" title="Step (S)">
            Step <kbd>S</kbd>
          </button>
          <button type="button" disabled={!running} onClick={() => void act('continue')} data-testid="continue-button" title="Continue to the next breakpoint (C)">
            Continue <kbd>C</kbd>
          </button>
          <button type="button" className="danger" disabled={!running} onClick={() => void act('stop')} data-testid="stop-button" title="Stop the run (X)">
            Stop <kbd>X</kbd>
          </button>
        </span>
      </div>
      {error ? (
        <p role="alert" className="error-text" data-testid="step-error">
          {error}
        </p>
      ) : null}
      {running ? (
        <fieldset className="breakpoints" data-testid="breakpoints">
          <legend>Breakpoints (change them while paused, then Continue)</legend>
          <label>
            <input
              type="checkbox"
              checked={breakpoints.modelTurns === 'all'}
              onChange={(event) => void setBreakpoints({ ...breakpoints, modelTurns: event.target.checked ? 'all' : [] })}
              data-testid="bp-edit-model-all"
            />{' '}
            every model call
          </label>
          {toolsOfScenario.map((tool) => (
            <label key={tool.name}>
              <input
                type="checkbox"
                checked={breakpoints.tools.includes(tool.name)}
                onChange={(event) =>
                  void setBreakpoints({
                    ...breakpoints,
                    tools: event.target.checked ? [...breakpoints.tools, tool.name] : breakpoints.tools.filter((name) => name !== tool.name),
                  })
                }
                data-testid={`bp-edit-tool-${tool.name}`}
              />{' '}
              {tool.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <ul className="pause-list">
        {run.pauses.map((pause) => (
          <PauseCard key={pause.pauseId} runId={run.runId} pause={pause} tools={props.tools} />
        ))}
      </ul>
    </section>
  );
}
