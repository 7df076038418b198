'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProviderChoice } from '@/lib/contract/provider';
import type { Breakpoints, RunMode } from '@/lib/contract/run-mode';
import { runnerPoolStatus, type RunnerPoolStatus, type RunnerResponse, type ScenarioListResponse } from '@/lib/contract/runner-status';
import type { RunResponse } from '@/lib/contract/run-session';
import type { SavedFileRow, SavedListResponse, TraceListResponse, TraceListRow } from '@/lib/contract/trace-list';
import { apiJson } from './api-client';
import { ImportTraces } from './import-traces';
import { ModelPicker } from './model-picker';
import { TraceList } from './trace-list';
import { useLiveEvents } from './use-live-events';
import { runtimeView } from '@/lib/runtimes/index';
import { scenarioRuntime } from '@/lib/contract/scenario';

/** "2 of 4 runners busy, 1 idle · 1 run waiting": the pool at a glance. */
function runnerPoolSummary(status: RunnerPoolStatus): string {
  const runners = status.runners ?? [];
  const count = (state: string) => runners.filter((runner) => runner.state === state).length;
  const parts = [`${count('busy')} of ${status.capacity ?? runners.length} runners busy`, `${count('idle')} idle`];
  if (count('starting') > 0) parts.push(`${count('starting')} starting`);
  const waiting = status.waiting ? ` · ${status.waiting} run${status.waiting === 1 ? '' : 's'} waiting` : '';
  return `${parts.join(', ')}${waiting}`;
}

const GO_RUNNER_WORDS = { idle: 'not built yet — the first Go run builds it', building: 'building…', ready: 'ready', failed: 'failed to build or start' } as const;

/** The genkit Go runner's state and, once it is up, the tools of tools/go/ (a typed tool with its Go resume type). */
function GoRunnerLine(props: { goRunner: ScenarioListResponse['goRunner'] }) {
  const { goRunner } = props;
  return (
    <p className="hint" data-testid="go-runner" data-state={goRunner.state}>
      genkit Go runner: {GO_RUNNER_WORDS[goRunner.state]}
      {goRunner.problem ? ` (${goRunner.problem.split('\n')[0]})` : ''}
      {goRunner.tools.length > 0 ? (
        <>
          {' '}
          · tools:{' '}
          {goRunner.tools.map((tool, position) => (
            <span key={tool.name} data-testid="go-runner-tool">
              {position > 0 ? ', ' : ''}
              <code>{tool.name}</code>
              {tool.resumeType ? ` (resumes with ${tool.resumeType})` : ''}
            </span>
          ))}
        </>
      ) : null}
    </p>
  );
}

/** Pick tools (and model calls) to pause at, then run to the first one. */
function BreakpointPicker(props: { tools: string[]; disabled: boolean; onRun: (breakpoints: Breakpoints) => void; testId: string }) {
  const [tools, setTools] = useState<string[]>([]);
  const [everyModelCall, setEveryModelCall] = useState(false);
  return (
    <details>
      <summary>Breakpoints…</summary>
      {props.tools.map((tool) => (
        <label key={tool} className="breakpoint-option">
          <input
            type="checkbox"
            checked={tools.includes(tool)}
            onChange={(event) => setTools(event.target.checked ? [...tools, tool] : tools.filter((name) => name !== tool))}
            data-testid={`bp-tool-${props.testId}-${tool}`}
          />{' '}
          before <code>{tool}</code>
        </label>
      ))}
      <label className="breakpoint-option">
        <input type="checkbox" checked={everyModelCall} onChange={(event) => setEveryModelCall(event.target.checked)} data-testid={`bp-model-${props.testId}`} /> before every model call
      </label>
      <button type="button" className="secondary" disabled={props.disabled} onClick={() => props.onRun({ tools, modelTurns: everyModelCall ? 'all' : [] })} data-testid={`breakpoints-${props.testId}`}>
        Run to breakpoints
      </button>
    </details>
  );
}

/** Home: scenarios to run, captured traces and saved trace files, kept fresh over the event stream. */
export function HomePage() {
  const router = useRouter();
  const [scenarios, setScenarios] = useState<ScenarioListResponse | undefined>();
  const [traces, setTraces] = useState<TraceListRow[] | undefined>();
  const [saved, setSaved] = useState<SavedFileRow[] | undefined>();
  const [runner, setRunner] = useState<RunnerPoolStatus | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [starting, setStarting] = useState<string | undefined>();
  // Which model the next run plays on (the picker; LOOPSCOPE_MODEL's choice first).
  const [provider, setProvider] = useState<ProviderChoice>({ kind: 'scripted' });

  const loadTraces = useCallback(async () => {
    try {
      const [captured, files] = await Promise.all([
        apiJson<TraceListResponse>('/api/traces'),
        apiJson<SavedListResponse>('/api/saved'),
      ]);
      setTraces(captured.traces);
      setSaved(files.files);
    } catch (loadError) {
      setError((loadError as Error).message);
    }
  }, []);
  // A delete shows at once; the traces-changed event that follows reloads the list anyway.
  const dropTraces = useCallback((traceIds: string[]) => {
    const gone = new Set(traceIds);
    setTraces((current) => current?.filter((trace) => !gone.has(trace.traceId)));
  }, []);
  const loadScenarios = useCallback(async () => {
    try {
      setScenarios(await apiJson<ScenarioListResponse>('/api/scenarios'));
    } catch (loadError) {
      setError((loadError as Error).message);
    }
  }, []);

  useEffect(() => {
    void loadScenarios();
    void loadTraces();
    apiJson<RunnerResponse>('/api/runner')
      .then(({ runner: status }) => setRunner((current) => current ?? runnerPoolStatus(status)))
      .catch(() => undefined);
  }, [loadScenarios, loadTraces]);

  // The pool reports every run it starts and ends, without its catalog; the scenario list
  // changes only when runners come back ready (a start, a restart) or load a different
  // catalog (tools/ reloaded: `catalogVersion`).
  const lastRunner = useRef<RunnerPoolStatus | undefined>(undefined);
  useLiveEvents({
    filter: {},
    onEvent: (event) => {
      if (event.type === 'traces-changed') void loadTraces();
      if (event.type === 'runner') {
        const previous = lastRunner.current;
        lastRunner.current = event.status;
        setRunner(event.status);
        const changed = previous?.state !== 'ready' || previous.restarts !== event.status.restarts || previous.catalogVersion !== event.status.catalogVersion;
        if (event.status.state === 'ready' && changed) void loadScenarios();
      }
    },
  });

  const run = async (name: string, mode: RunMode = { kind: 'run' }) => {
    setStarting(name);
    setError(undefined);
    try {
      const { run: started } = await apiJson<RunResponse>('/api/runs', { method: 'POST', body: { scenario: name, mode, provider } });
      router.push(`/runs/${started.runId}`);
    } catch (runError) {
      setError((runError as Error).message);
      setStarting(undefined);
    }
  };

  const restartRunner = async () => {
    try {
      await apiJson('/api/runner/restart', { method: 'POST', body: {} });
    } catch (restartError) {
      setError((restartError as Error).message);
    }
  };

  const runnerState = runner?.state ?? scenarios?.runner;
  return (
    <main className="home">
      <section aria-labelledby="scenarios-heading">
        <div className="section-head">
          <h2 id="scenarios-heading">Scenarios</h2>
          <span className="runner-state">
            <span data-testid="runner-state">
              runner: {runnerState ?? 'starting'}
              {runner?.lastRestartReason ? ` (last restart: ${runner.lastRestartReason})` : ''}
            </span>{' '}
            {runner?.runners ? (
              <span className="hint" data-testid="runner-pool" title="Each run gets a runner process of its own (LOOPSCOPE_MAX_RUNNERS)">
                · {runnerPoolSummary(runner)}
              </span>
            ) : null}{' '}
            <button type="button" className="secondary" onClick={restartRunner} data-testid="restart-runner" title="Kill every runner process and start a fresh one">
              Restart runner
            </button>
          </span>
        </div>
        <p className="hint">
          Each scenario runs real genkit with your tools from <code>tools/</code> (AI SDK scenarios: the AI SDK&apos;s{' '}
          <code>generateText</code> with <code>tools/ai-sdk/</code>; genkit Go scenarios: genkit Go with <code>tools/go/</code>) and a scripted model. Edit a tool and the runner reloads it.
        </p>
        <ModelPicker choice={provider} onChoice={setProvider} />
        {scenarios?.goRunner ? <GoRunnerLine goRunner={scenarios.goRunner} /> : null}
        {scenarios?.forwarding ? (
          <p className="hint" data-testid="forwarding" data-error={scenarios.forwarding.lastError ? 'true' : 'false'}>
            Forwarding every received span to <code>{scenarios.forwarding.url}</code>: {scenarios.forwarding.sentSpans} span(s) sent, {scenarios.forwarding.queued} export(s) waiting
            {scenarios.forwarding.droppedSpans > 0 ? `, ${scenarios.forwarding.droppedSpans} span(s) dropped` : ''}
            {scenarios.forwarding.lastError ? ` — ${scenarios.forwarding.lastError}` : ''}
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="error-text" data-testid="home-error">
            {error}
          </p>
        ) : null}
        {scenarios?.problems.length ? (
          <div role="alert" className="problems">
            <strong>Some files in tools/ could not be loaded:</strong>
            <ul>
              {scenarios.problems.map((problem) => (
                <li key={problem.file}>
                  <code>{problem.file}</code>: {problem.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {!scenarios ? <p className="empty">Loading scenarios…</p> : null}
        <ul className="scenario-grid">
          {scenarios?.scenarios.map((scenario) => (
            <li key={scenario.name} className="scenario-card" data-testid="scenario-card" data-scenario={scenario.name}>
              <h3>{scenario.title}</h3>
              <p className="scenario-name">
                <code>{scenario.name}</code>
              </p>
              <p>{scenario.description}</p>
              <p className="scenario-tools">
                tools:{' '}
                {scenario.tools.map((tool) => (
                  <code key={tool}>{tool}</code>
                ))}
              </p>
              <div className="scenario-buttons">
                <button type="button" onClick={() => run(scenario.name)} disabled={starting !== undefined} data-testid={`run-${scenario.name}`}>
                  {starting === scenario.name ? 'Starting…' : 'Run'}
                </button>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => run(scenario.name, { kind: 'step' })}
                  disabled={starting !== undefined}
                  data-testid={`step-${scenario.name}`}
                  title="Pause before every model call and every tool execution"
                >
                  Step through
                </button>
                {runtimeView(scenarioRuntime(scenario)).scenarioHint ? (
                  <span className="hint" data-testid={`runtime-${scenario.name}`}>
                    {runtimeView(scenarioRuntime(scenario)).scenarioHint}
                  </span>
                ) : null}
              </div>
              <BreakpointPicker tools={scenario.tools} disabled={starting !== undefined} onRun={(breakpoints) => run(scenario.name, { kind: 'breakpoints', breakpoints })} testId={scenario.name} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="traces-heading">
        <div className="section-head">
          <h2 id="traces-heading">Captured traces</h2>
          <Link href="/apps" data-testid="apps-link">Your apps (attached genkit runtimes)</Link>
        </div>
        <p className="hint">
          From runs here, from any app exporting OTLP/HTTP to <code>/v1/traces</code>, and imported files (OTLP JSON, JSONL,
          Genkit Dev UI <code>.genkit/traces/</code> files). Newest first; a resume is listed under the run it answered. Press <kbd>/</kbd> to search.
        </p>
        <ImportTraces>
        {traces && traces.length === 0 ? <p className="empty">No traces yet: run a scenario.</p> : null}
        {traces ? <TraceList traces={traces} onDeleted={dropTraces} /> : null}
        </ImportTraces>
      </section>

      <section aria-labelledby="saved-heading">
        <h2 id="saved-heading">Saved traces</h2>
        <p className="hint">
          Files in <code>traces/</code>: shipped examples and the repros you saved.
        </p>
        {saved && saved.length === 0 ? <p className="empty">No saved traces.</p> : null}
        <ul className="saved-list" data-testid="saved-list">
          {saved?.map((file) => (
            <li key={file.file} data-testid="saved-row" data-file={file.file}>
              {file.error ? (
                <span>
                  <code>{file.file}</code> <span className="error-text">cannot be read: {file.error}</span>
                </span>
              ) : (
                <Link href={`/saved/${encodeURIComponent(file.file)}`}>
                  <code>{file.file}</code>
                </Link>
              )}
              {file.description ? <span className="saved-description"> — {file.description}</span> : null}
              {!file.error ? (
                <span className="saved-meta">
                  {' '}
                  · {file.traceIds.length} trace(s) · {file.spanCount} spans
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
