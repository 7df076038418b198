'use client';

import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import type { Divergence } from '@/lib/contract/replay';
import type { RunSession } from '@/lib/contract/run-session';
import type { RunGraph } from '@/lib/graph/run-graph';
import { apiJson } from './api-client';
import { EMPTY_GRAPH } from './empty-graph';
import { RunGraphView } from './run-graph-view';

function show(value: unknown): string {
  if (value === '(missing)') return '(nothing)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}

/** The graph node that stands for a span (model, tool and generate nodes are keyed by their span). */
function nodeFor(graph: RunGraph | undefined, span: { traceId: string; spanId: string } | undefined): string | undefined {
  if (!graph || !span) return undefined;
  return graph.nodes.find((node) => node.traceId === span.traceId && node.spanId === span.spanId)?.id;
}

/** The recording a replay ran from, as the server draws it. */
function useRecordedGraph(runId: string): { graph?: RunGraph; error?: string } {
  const [state, setState] = useState<{ graph?: RunGraph; error?: string }>({});
  useEffect(() => {
    let cancelled = false;
    apiJson<RunGraph>(`/api/runs/${runId}/recorded-graph`).then(
      (graph) => !cancelled && setState({ graph }),
      (error: Error) => !cancelled && setState({ error: error.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [runId]);
  return state;
}

/**
 * A replay: the verdict, the first divergence explained (which call, which field, recorded vs
 * replayed), every step's outcome, and the recorded and replayed graphs side by side with the
 * divergence marked in both.
 */
export function ReplayView(props: { run: RunSession; replayedGraph?: RunGraph }) {
  const { run } = props;
  const replay = run.replay!;
  const report = replay.report;
  const recorded = useRecordedGraph(run.runId);
  // The replayed graph is the run's own, as the server rebuilds it while the replay goes on.
  const replayedGraph = props.replayedGraph ?? EMPTY_GRAPH;
  const [chosen, setChosen] = useState(0);
  const divergence: Divergence | undefined = report?.divergences[chosen];
  const recordedNode = nodeFor(recorded.graph, divergence?.recordedSpan);
  const replayedNode = nodeFor(replayedGraph, divergence?.replayedSpan);
  const [selectedRecorded, setSelectedRecorded] = useState<string | undefined>();
  const [selectedReplayed, setSelectedReplayed] = useState<string | undefined>();
  useEffect(() => {
    setSelectedRecorded(recordedNode);
    setSelectedReplayed(replayedNode);
  }, [recordedNode, replayedNode]);
  const markedRecorded = useMemo(() => new Set(recordedNode ? [recordedNode] : []), [recordedNode]);
  const markedReplayed = useMemo(() => new Set(replayedNode ? [replayedNode] : []), [replayedNode]);
  const sourceLabel = 'file' in replay.source ? `traces/${replay.source.file}` : `${replay.source.traceIds.length} captured trace(s)`;
  const sourceHref = 'file' in replay.source ? `/saved/${encodeURIComponent(replay.source.file)}` : `/traces/${replay.source.traceIds[0]}`;
  const verdict = run.status === 'running' ? 'running' : run.status === 'failed' ? 'failed' : run.status === 'stopped' ? 'stopped' : report?.matched ? 'match' : 'diverged';

  return (
    <div className="replay-view" data-testid="replay-view">
      <p className="detail-meta">
        <span className={`replay-verdict ${verdict === 'failed' || verdict === 'stopped' ? 'diverged' : verdict}`} data-testid="replay-verdict">
          {verdict === 'running' ? 'replaying…' : verdict === 'failed' ? 'could not replay' : verdict === 'stopped' ? 'stopped before the end' : verdict === 'match' ? 'matches the recording' : 'diverged'}
        </span>{' '}
        {replay.fork ? <span data-testid="replay-fork">fork: {replay.fork} · </span> : null}
        replay of <Link href={sourceHref}>{sourceLabel}</Link> · {replay.mode} · {replay.liveTools ? 'live tools' : 'recorded tools (stubs)'}
        {report ? ` · ${report.steps.length} step(s), ${report.divergences.length} divergence(s), ${Math.round(report.durationMs)} ms` : ''}
      </p>
      {divergence ? (
        <section className="divergence-first" data-testid="divergence" aria-label="Divergence">
          <h2>
            {chosen === 0 ? 'First divergence' : `Divergence ${chosen + 1}`}: {divergence.stepLabel}, {divergence.call}, field <code data-testid="divergence-field">{divergence.field}</code>
          </h2>
          <p data-testid="divergence-message">{divergence.message}</p>
          <div className="divergence-values">
            <div>
              <strong>Recorded</strong>
              <pre data-testid="divergence-recorded">{show(divergence.recorded)}</pre>
            </div>
            <div>
              <strong>Replayed</strong>
              <pre data-testid="divergence-replayed">{show(divergence.replayed)}</pre>
            </div>
          </div>
          {report && report.divergences.length > 1 ? (
            <ul className="divergence-list" aria-label="All divergences">
              {report.divergences.map((item, index) => (
                <li key={index}>
                  <button type="button" className="link" aria-pressed={index === chosen} onClick={() => setChosen(index)}>
                    {index + 1}. {item.stepLabel}, {item.call}: {item.field}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
      {report ? (
        <table className="replay-steps" data-testid="replay-steps">
          <thead>
            <tr>
              <th>step</th>
              <th>recorded</th>
              <th>replayed</th>
              <th>calls (replayed / recorded)</th>
            </tr>
          </thead>
          <tbody>
            {report.steps.map((step, position) => (
              <tr key={step.index} data-matched={step.matched ? 'true' : 'false'}>
                <td>
                  {step.replayed === undefined ? '·' : step.matched ? '✓' : '✗'} {step.label}
                  {step.history === 'replayed-retry' ? ' (a retry: same messages)' : ''}
                </td>
                <td>{replay.stepOutcomes?.[position]?.recorded ?? step.recorded.kind}</td>
                <td>{replay.stepOutcomes?.[position]?.replayed ?? step.replayed?.kind ?? 'not replayed'}</td>
                <td>
                  model {step.modelCalls.replayed}/{step.modelCalls.recorded} · tool {step.toolCalls.replayed}/{step.toolCalls.recorded}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="replay-side-by-side">
        <section data-testid="recorded-graph" aria-label="Recorded">
          <h2>Recorded</h2>
          {recorded.error ? <p className="error-text">{recorded.error}</p> : recorded.graph ? <RunGraphView graph={recorded.graph} selectedNodeId={selectedRecorded} onSelect={setSelectedRecorded} markedNodeIds={markedRecorded} /> : <p className="empty">Loading the recording…</p>}
        </section>
        <section data-testid="replayed-graph" aria-label="Replayed">
          <h2>Replayed</h2>
          <RunGraphView graph={replayedGraph} selectedNodeId={selectedReplayed} onSelect={setSelectedReplayed} markedNodeIds={markedReplayed} />
        </section>
      </div>
    </div>
  );
}
