'use client';

import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import type { ResumeMatch } from '@/lib/graph/match-resumes';
import type { RunGraph } from '@/lib/graph/run-graph';
import { decodeOtlpJson } from '@/lib/trace/otlp-json';
import { classifySpan } from '@/lib/dialects/classify-span';
import { summarizeTrace } from '@/lib/trace/summarize-trace';
import { apiJson } from './api-client';
import { ExportReproButton, ReplayControls } from './replay-controls';
import { SaveTraceForm } from './save-trace-form';
import { StatusPill } from './status-pill';
import { TraceWorkspace } from './trace-workspace';
import { useLiveEvents } from './use-live-events';
import { useSpanCollection } from './use-span-collection';

/** A captured trace or a saved file (one or more traces), with live updates for captured ones. */
export function TracePage(props: { traceId?: string; savedFile?: string; initialNodeId?: string; initialTab?: 'graph' | 'spans' }) {
  const collection = useSpanCollection();
  const [error, setError] = useState<string | undefined>();
  const [loaded, setLoaded] = useState(false);
  const source = props.traceId ? `/api/traces/${props.traceId}` : `/api/saved/${encodeURIComponent(props.savedFile ?? '')}`;

  const addSpans = collection.add;
  // A captured trace opens with its session: the interrupted generate it resumed and the
  // resumes that answered it live in other traces, linked by the index.
  const [sessionIds, setSessionIds] = useState<string[]>(props.traceId ? [props.traceId] : []);
  // Which resume answers which interrupt, as the server decided with every captured trace in view.
  const [matches, setMatches] = useState<ResumeMatch[] | undefined>();
  // A saved file: the server's cached graph draws at once; spans come when asked for.
  const [savedGraph, setSavedGraph] = useState<RunGraph | undefined>();
  const [spansLoading, setSpansLoading] = useState(false);
  useEffect(() => {
    if (!props.savedFile) return;
    apiJson<RunGraph>(`/api/saved/${encodeURIComponent(props.savedFile)}/graph`)
      .then(setSavedGraph)
      .catch((loadError: Error) => setError(loadError.message))
      .finally(() => setLoaded(true));
  }, [props.savedFile]);
  const loadSavedSpans = useCallback(() => {
    if (!props.savedFile || spansLoading) return;
    setSpansLoading(true);
    apiJson<unknown>(source)
      .then((body) => addSpans(decodeOtlpJson(body)))
      .catch((loadError: Error) => setError(loadError.message))
      .finally(() => setSpansLoading(false));
  }, [props.savedFile, source, addSpans, spansLoading]);
  const loadSpan = useCallback(
    async (traceId: string, spanId: string) => {
      const body = await apiJson<unknown>(`/api/saved/${encodeURIComponent(props.savedFile ?? '')}/spans/${traceId}/${spanId}`);
      return decodeOtlpJson(body)[0];
    },
    [props.savedFile],
  );

  const load = useCallback(() => {
    if (props.savedFile) return;
    const loadAll = async () => {
      let sources = [source];
      if (props.traceId) {
        const session = await apiJson<{ traceIds: string[]; matches?: ResumeMatch[] }>(`/api/traces/${props.traceId}/session`).catch(() => ({ traceIds: [props.traceId!], matches: undefined }));
        setSessionIds(session.traceIds);
        setMatches(session.matches);
        sources = session.traceIds.map((traceId) => `/api/traces/${traceId}`);
      }
      const bodies = await Promise.all(sources.map((path) => apiJson<unknown>(path)));
      for (const body of bodies) addSpans(decodeOtlpJson(body));
      setError(undefined);
    };
    loadAll()
      .catch((loadError: Error) => setError(loadError.message))
      .finally(() => setLoaded(true));
  }, [source, addSpans, props.traceId, props.savedFile]);

  useEffect(() => load(), [load]);

  // A captured trace may still be growing: spans that arrive are added; on (re)connect the
  // stored trace is fetched again so nothing published before we listened is lost.
  useLiveEvents(
    { traceIds: sessionIds },
    (event) => {
      if (event.type === 'spans' && sessionIds.includes(event.traceId)) collection.add(event.spans);
    },
    () => {
      if (props.traceId) load();
    },
  );

  const traceIds = savedGraph ? [...new Set(savedGraph.generates.map((generate) => generate.traceId))] : [...new Set(collection.spans.map((span) => span.traceId))];
  const summary = !savedGraph && traceIds.length > 0 ? summarizeTrace(traceIds[0], collection.spans.filter((span) => span.traceId === traceIds[0]), classifySpan) : undefined;
  return (
    <main className="trace-page">
      <header className="page-head">
        <div>
          <h1>{props.savedFile ? <code>traces/{props.savedFile}</code> : summary?.name ?? 'Trace'}</h1>
          <p className="detail-meta">
            {summary && traceIds.length === 1 ? <StatusPill status={summary.status} testId="trace-status" /> : null}{' '}
            {traceIds.length} trace(s){props.traceId && traceIds.length > 1 ? ' in this session (the original and its resumes)' : ''}
            {savedGraph ? ` · ${savedGraph.summary.modelCalls + savedGraph.summary.toolCalls} model and tool calls` : ` · ${collection.spans.length} spans`}
            {spansLoading ? ' · loading spans…' : ''}
            {props.traceId ? (
              <>
                {' '}
                · <code>{props.traceId}</code>
              </>
            ) : null}
          </p>
        </div>
        <div className="actions">
          {props.savedFile ? <ReplayControls source={{ file: props.savedFile }} /> : sessionIds.length > 0 && collection.spans.length > 0 ? <ReplayControls source={{ traceIds: sessionIds }} /> : null}
          {props.savedFile ? <ExportReproButton file={props.savedFile} /> : null}
          {props.traceId && collection.spans.length > 0 ? <SaveTraceForm traceIds={[props.traceId]} suggestedName={`trace-${props.traceId.slice(0, 8)}`} /> : null}
        </div>
      </header>
      {error ? (
        <p role="alert" className="error-banner">
          {error} <Link href="/">Back home</Link>
        </p>
      ) : null}
      {props.savedFile ? (
        savedGraph ? (
          <TraceWorkspace
            spans={collection.spans}
            graph={savedGraph}
            loadSpan={loadSpan}
            onSpansNeeded={loadSavedSpans}
            resumeSource={{ file: props.savedFile }}
            initialNodeId={props.initialNodeId}
            initialTab={props.initialTab}
          />
        ) : (
          <p className="empty">{loaded ? '' : 'Loading…'}</p>
        )
      ) : loaded || collection.spans.length > 0 ? (
        <TraceWorkspace spans={collection.spans} matches={matches} initialNodeId={props.initialNodeId} initialTab={props.initialTab} resumeSource={{ traceIds: sessionIds }} />
      ) : (
        <p className="empty">Loading…</p>
      )}
    </main>
  );
}
