'use client';

import { describeChoice } from '@/lib/contract/provider';
import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import type { ScenarioListResponse } from '@/lib/contract/runner-status';
import { scenarioRuntime } from '@/lib/contract/scenario';
import { runtimeView } from '@/lib/runtimes/index';
import type { RunResponse, RunSession } from '@/lib/contract/run-session';
import type { ListedTool } from '@/lib/contract/tool-info';
import type { RunGraph } from '@/lib/graph/run-graph';
import { decodeOtlpJson } from '@/lib/spans/otlp-json';
import { openSpanFromStart } from '@/lib/contract/open-span';
import { apiJson, sourceSpanUrls, spanViewUrl } from './api-client';
import { EMPTY_GRAPH } from './empty-graph';
import { SaveTraceForm } from './save-trace-form';
import { ReplayView } from './replay-view';
import { StepPanel } from './step-panel';
import { StopRunButton } from './stop-run-button';
import { StatusPill } from './status-pill';
import { TraceWorkspace, type Tab } from './trace-workspace';
import { useLiveEvents } from './use-live-events';
import { useSpanCollection } from './use-span-collection';

/**
 * A run as it happens: status, and the graph of every generate call (first run and resumes)
 * as the server rebuilds it from the spans that arrive (a `graph` event per version). The
 * spans themselves come too, for the span tree.
 */
export function RunPage(props: { runId: string; initialNodeId?: string; initialTab?: Tab }) {
  const { runId } = props;
  const [run, setRun] = useState<RunSession | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [hasScriptedAnswer, setHasScriptedAnswer] = useState(false);
  const [tools, setTools] = useState<ListedTool[]>([]);
  const [graph, setGraph] = useState<{ version: number; graph: RunGraph } | undefined>();
  const [scenarioTools, setScenarioTools] = useState<string[]>([]);
  const [runtime, setRuntime] = useState<string | undefined>();
  const [resuming, setResuming] = useState(false);
  const collection = useSpanCollection();
  const addSpans = collection.add;

  const refresh = useCallback(async () => {
    try {
      const { run: loaded } = await apiJson<RunResponse>(`/api/runs/${runId}`);
      // A fetch can answer after a newer live update arrived: keep the newest.
      setRun((current) => (current && current.version > loaded.version ? current : loaded));
      // The span tree shows a resume of a recorded interrupt with the recording it answers, as the graph does.
      const sources = [...sourceSpanUrls({ traceIds: loaded.traceIds }), ...(loaded.resumeOf ? sourceSpanUrls(loaded.resumeOf) : [])];
      const bodies = await Promise.all(sources.map((url) => apiJson<unknown>(url).catch(() => undefined)));
      for (const body of bodies) if (body) addSpans(decodeOtlpJson(body));
    } catch (loadError) {
      setError((loadError as Error).message);
    }
  }, [runId, addSpans]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // Refetched when the run's scenario or its number of resumes changes, not on every update of the run.
  const scenarioName = run?.scenario;
  const resumes = run?.resumes;
  const hasRun = run !== undefined;
  // Refetched at the first pause too: a Go run's tools are listed once its runner has started.
  const paused = (run?.pauses.length ?? 0) > 0;
  // A generate in an attached app pauses at the app's tools (their schemas came with the run), not tools/'s.
  // As a string: every run update is a new object, and the tools never change within a run.
  const appToolsKey = run?.app ? JSON.stringify(run.app.tools) : undefined;
  const appRuntime = run?.app?.runtime;
  useEffect(() => {
    if (!hasRun) return;
    if (appToolsKey) {
      const appTools = JSON.parse(appToolsKey) as ListedTool[];
      setHasScriptedAnswer(false);
      setTools(appTools);
      setScenarioTools(appTools.map((tool) => tool.name));
      // An app's call pauses in its runtime's words (an app using loopscope/ai-sdk: approvals and handed-back tools).
      setRuntime(appRuntime);
      return;
    }
    apiJson<ScenarioListResponse>('/api/scenarios')
      .then(({ scenarios, toolsByRuntime }) => {
        const scenario = scenarios.find((candidate) => candidate.name === scenarioName);
        setHasScriptedAnswer((scenario?.resumes?.length ?? 0) > (resumes ?? 0));
        // Each runtime has its own tools (an AI SDK getWeather is not genkit's): the step panel edits with the run's.
        setTools(scenario ? (toolsByRuntime[scenarioRuntime(scenario)] ?? []) : []);
        setScenarioTools(scenario?.tools ?? []);
        setRuntime(scenario ? scenarioRuntime(scenario) : undefined);
      })
      .catch(() => setHasScriptedAnswer(false));
  }, [hasRun, scenarioName, resumes, paused, appToolsKey, appRuntime]);

  // On every (re)connect the stream first replays the run and its span starts, then says
  // ready: stored spans are fetched then, so nothing published before we listened is lost.
  const connected = useLiveEvents({
    filter: { runId },
    onEvent: (event) => {
      if (event.type === 'run') {
        setRun((current) => (current && current.version > event.run.version ? current : event.run));
        if (event.run.status !== 'running') void refresh();
      } else if (event.type === 'graph') setGraph((current) => (current && current.version >= event.version ? current : { version: event.version, graph: event.graph }));
      else if (event.type === 'span-start') collection.add([openSpanFromStart(event.span)]);
      else if (event.type === 'spans') collection.add(event.spans);
    },
    onReady: () => void refresh(),
  });

  const resume = async () => {
    setResuming(true);
    setError(undefined);
    try {
      const { run: updated } = await apiJson<RunResponse>(`/api/runs/${runId}/resume`, { method: 'POST', body: {} });
      setRun((current) => (current && current.version > updated.version ? current : updated));
    } catch (resumeError) {
      setError((resumeError as Error).message);
    } finally {
      setResuming(false);
    }
  };

  if (error && !run) {
    return (
      <main>
        <p role="alert" className="error-text">
          {error}
        </p>
        <Link href="/">Back to the scenarios</Link>
      </main>
    );
  }
  const stepping = run !== undefined && (run.mode.kind !== 'run' || run.pauses.length > 0);
  /** A run a route answered with (Stop): kept unless the page already has a newer version. */
  const takeRun = (answered: RunSession) => setRun((current) => (current && current.version > answered.version ? current : answered));
  // Who wrote the final text: a scenario's scripted model (its text may quote tool outputs), a
  // hand-written answer given at a step, or — in a replay — the recording.
  const lastModel = graph?.graph.generates.at(-1)?.turns.flatMap((turn) => (turn.model ? [turn.model] : [])).at(-1);
  const answerBy = run?.replay
    ? 'Recorded model'
    : lastModel?.handWritten
      ? 'Hand-written answer'
      : run?.app
        ? `${run.app.runtimeName}'s model${run.app.model ? ` ${run.app.model}` : ''}`
        : 'Scripted model';
  // Answered from the workbench: the run itself stays paused, its answers run as new runs, drawn here too.
  const answered = run?.status === 'interrupted' && (run.answeredBy?.length ?? 0) > 0;
  return (
    <main className="run-page">
      <header className="page-head">
        <div>
          <h1>
            {run?.replay ? (run.replay.fork ? 'Fork' : 'Replay') : run?.resumeOf ? 'Resume' : 'Run of'}{' '}
            <code>{run?.replay ? run.label.replace(/^(replay|fork) of /, '') : run?.resumeOf ? ('file' in run.resumeOf ? `traces/${run.resumeOf.file}` : `trace ${run.resumeOf.traceIds.at(-1)?.slice(0, 8)}…`) : (run?.label ?? '…')}</code>
          </h1>
          <p className="detail-meta">
            {run ? <StatusPill status={answered ? 'answered' : run.status} testId="run-status" /> : null}
            {run?.finishReason ? <span> finishReason: <code data-testid="run-finish-reason">{run.finishReason}</code></span> : null}
            {run && run.resumes > 0 ? <span> · resumed {run.resumes}×</span> : null}
            {run?.provider ? <span data-testid="run-provider"> · on {describeChoice(run.provider)}</span> : null}
            {run?.runner?.pid ? <span data-testid="run-runner"> · runner {run.runner.pid}</span> : null}
            <span className={connected ? 'live on' : 'live'}>{connected ? ' · live' : ' · connecting…'}</span>
          </p>
        </div>
        <div className="actions">
          {/* A stepped run stops from its step panel; any other run in flight from here. */}
          {run?.status === 'running' && !stepping ? <StopRunButton run={run} onStopped={takeRun} /> : null}
          {run?.status === 'interrupted' && hasScriptedAnswer ? (
            <button type="button" onClick={resume} disabled={resuming} data-testid="resume-scripted">
              Resume with the scenario&apos;s answer
            </button>
          ) : null}
          {run && run.traceIds.length > 0 && run.status !== 'running' ? (
            <SaveTraceForm traceIds={run.traceIds} suggestedName={`${run.label}-${new Date(run.startedAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`} />
          ) : null}
        </div>
      </header>
      {/* A replay has no workspace: its step controls stay above its side-by-side graphs. */}
      {run && stepping && run.replay ? <StepPanel run={run} tools={tools} scenarioTools={scenarioTools} onRun={takeRun} /> : null}
      {run?.status === 'interrupted' && !answered ? (
        <p className="pause-banner" role="status" data-testid="pause-banner">
          {runtimeView(runtime ?? scenarioRuntime({})).pausedRun.replace('{count}', String(run.interrupts.length))}
        </p>
      ) : null}
      {run?.answeredBy?.length ? (
        <p className="hint" data-testid="answered-by">
          Answered from the workbench:{' '}
          {run.answeredBy.map((answer, index) => (
            <Link key={answer} href={`/runs/${answer}`}>
              {run.answeredBy!.length > 1 ? `answer ${index + 1}` : 'the resumed run'}
            </Link>
          ))}
          {run.answeredBy.length > 1 ? ' (alternative answers: branches of the graph below)' : ' (drawn in the graph below)'}
        </p>
      ) : null}
      {run?.status === 'running' && run.runner?.waiting ? (
        <p className="hint" role="status" data-testid="run-runner-waiting">
          This run is {run.runner.waiting}.
        </p>
      ) : null}
      {run?.runner?.sharedWith?.length ? (
        <p className="hint" data-testid="run-runner-shared">
          Isolation degraded: every runner was busy, so this run shares runner {run.runner.pid ?? ''} with paused run
          {run.runner.sharedWith.length > 1 ? 's' : ''}{' '}
          {run.runner.sharedWith.map((other, index) => (
            <span key={other}>
              {index > 0 ? ', ' : ''}
              <Link href={`/runs/${other}`}>{other.slice(0, 8)}…</Link>
            </span>
          ))}
          ; a tool that kills that runner fails them all.
        </p>
      ) : null}
      {run?.failure ? (
        <p className="error-banner" role="alert" data-testid="run-failure">
          {run.failure.status ? <code>{run.failure.status}</code> : null} {run.failure.message}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      {run?.text && run.status === 'finished' ? (
        <p className="final-answer" data-testid="run-text">
          <span className="final-answer-by" data-testid="run-text-by">
            {answerBy}:
          </span>{' '}
          {run.text}
        </p>
      ) : null}
      {run?.resumeOf ? (
        <p className="hint" data-testid="resume-of">
          Answers an interrupt recorded in{' '}
          {'file' in run.resumeOf ? <Link href={`/saved/${encodeURIComponent(run.resumeOf.file)}`}>traces/{run.resumeOf.file}</Link> : <Link href={`/traces/${run.resumeOf.traceIds.at(-1)}`}>trace {run.resumeOf.traceIds.at(-1)?.slice(0, 8)}…</Link>}; the graph draws both, linked.
        </p>
      ) : null}
      {run && run.traceIds.length > 0 ? (
        <p className="trace-links">
          Traces:{' '}
          {run.traceIds.map((traceId, index) => (
            <Link key={traceId} href={`/traces/${traceId}`}>
              {run.resumeOf ? `resume${run.traceIds.length > 1 ? ` ${index + 1}` : ''}` : index === 0 ? 'first generate' : `resume ${index}`}
            </Link>
          ))}
        </p>
      ) : null}
      {run?.replay ? <ReplayView run={run} replayedGraph={graph?.graph} /> : null}
      {run?.replay ? null : (
        <TraceWorkspace
          graph={graph?.graph ?? EMPTY_GRAPH}
          spans={collection.spans}
          spanViewUrl={spanViewUrl}
          initialNodeId={props.initialNodeId}
          initialTab={props.initialTab}
          pauses={run?.pauses}
          resumeSource={run ? { traceIds: run.traceIds } : undefined}
          aside={run && stepping ? <StepPanel run={run} tools={tools} scenarioTools={scenarioTools} onRun={takeRun} /> : undefined}
        />
      )}
    </main>
  );
}
