'use client';

import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionGraphResponse } from '@/lib/contract/session';
import type { SavedListResponse } from '@/lib/contract/trace-list';
import type { RunGraph } from '@/lib/graph/run-graph';
import { decodeOtlpJson } from '@/lib/spans/otlp-json';
import { apiJson, sourceSpanUrls, spanViewUrl } from './api-client';
import { ExportReproButton, ReplayControls } from './replay-controls';
import { SaveTraceForm } from './save-trace-form';
import { StatusPill } from './status-pill';
import { TraceWorkspace, type Tab } from './trace-workspace';
import { useLiveEvents } from './use-live-events';
import { useSpanCollection } from './use-span-collection';

/**
 * A captured trace (with its session) or a saved file (one or more traces). The graph is the
 * server's: a saved file's cached Graph JSON, a captured trace's session graph (built with the
 * matches decided over every captured trace, fetched again as spans of the session arrive).
 * Spans are loaded only for the span tree.
 */
export function TracePage(props: { traceId?: string; savedFile?: string; initialNodeId?: string; initialTab?: Tab }) {
  const { traceId, savedFile } = props;
  const collection = useSpanCollection();
  const [error, setError] = useState<string | undefined>();
  const [graph, setGraph] = useState<RunGraph | undefined>();
  // A captured trace opens with its session: the interrupted generate it resumed and the
  // resumes that answered it live in other traces, linked by the index.
  const [session, setSession] = useState<Omit<SessionGraphResponse, 'graph'> | undefined>();
  const sessionIds = session?.traceIds ?? (traceId ? [traceId] : []);

  useEffect(() => {
    if (!savedFile) return;
    apiJson<RunGraph>(`/api/saved/${encodeURIComponent(savedFile)}/graph`)
      .then(setGraph)
      .catch((loadError: Error) => setError(loadError.message));
  }, [savedFile]);

  // A saved file may say what it shows (a top-level "description"): the list carries it.
  const [description, setDescription] = useState<string | undefined>();
  useEffect(() => {
    if (!savedFile) return;
    apiJson<SavedListResponse>('/api/saved')
      .then((list) => setDescription(list.files.find((row) => row.file === savedFile)?.description))
      .catch(() => setDescription(undefined));
  }, [savedFile]);

  // One session-graph request at a time; changes that arrive meanwhile ask for one more after it.
  const loading = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  const loadSessionGraph = useCallback(() => {
    if (!traceId) return;
    if (loading.current.busy) {
      loading.current.again = true;
      return;
    }
    loading.current.busy = true;
    apiJson<SessionGraphResponse<RunGraph>>(`/api/traces/${traceId}/session/graph`)
      .then(({ graph: built, ...rest }) => {
        setGraph(built);
        setSession(rest);
        setError(undefined);
      })
      .catch((loadError: Error) => setError(loadError.message))
      .finally(() => {
        loading.current.busy = false;
        if (loading.current.again) {
          loading.current.again = false;
          loadSessionGraph();
        }
      });
  }, [traceId]);
  useEffect(() => loadSessionGraph(), [loadSessionGraph]);

  // The span tree's spans: fetched when it is first opened (and again on reconnect once loaded).
  const [spansWanted, setSpansWanted] = useState(false);
  const [spansLoading, setSpansLoading] = useState(false);
  const addSpans = collection.add;
  const sessionKey = sessionIds.join(',');
  const loadSpans = useCallback(() => {
    const urls = savedFile ? sourceSpanUrls({ file: savedFile }) : sessionKey ? sourceSpanUrls({ traceIds: sessionKey.split(',') }) : [];
    if (urls.length === 0) return;
    setSpansLoading(true);
    Promise.all(urls.map((url) => apiJson<unknown>(url)))
      .then((bodies) => {
        for (const body of bodies) addSpans(decodeOtlpJson(body));
      })
      .catch((loadError: Error) => setError(loadError.message))
      .finally(() => setSpansLoading(false));
  }, [savedFile, sessionKey, addSpans]);
  useEffect(() => {
    if (spansWanted) loadSpans();
  }, [spansWanted, loadSpans]);
  const onSpansNeeded = useCallback(() => setSpansWanted(true), []);

  // A captured trace may still be growing: its graph is fetched again when spans of the session
  // arrive, and on (re)connect, so nothing published before we listened is lost.
  useLiveEvents({
    filter: { traceIds: sessionIds },
    onEvent: (event) => {
      if (event.type !== 'spans' || !sessionIds.includes(event.traceId)) return;
      loadSessionGraph();
      if (spansWanted) collection.add(event.spans);
    },
    onReady: () => {
      if (!traceId) return;
      loadSessionGraph();
      if (spansWanted) loadSpans();
    },
  });

  const viewUrl = useCallback((span: { traceId: string; spanId: string }) => spanViewUrl({ ...span, savedFile }), [savedFile]);
  const traceCount = graph ? (session ? session.traceIds.length : new Set(graph.generates.map((generate) => generate.traceId)).size) : 0;
  return (
    <main className="trace-page">
      <header className="page-head">
        <div>
          <h1>{savedFile ? <code>traces/{savedFile}</code> : session?.trace.name ?? 'Trace'}</h1>
          {description ? (
            <p className="saved-file-description" data-testid="saved-description">
              {description}
            </p>
          ) : null}
          <p className="detail-meta">
            {session && session.traceIds.length === 1 ? <StatusPill status={session.trace.status} testId="trace-status" /> : null} {traceCount} trace(s)
            {traceId && traceCount > 1 ? ' in this session (the original and its resumes)' : ''}
            {graph && savedFile ? ` · ${graph.summary.modelCalls + graph.summary.toolCalls} model and tool calls` : ''}
            {session ? ` · ${session.spanCount} spans` : ''}
            {spansLoading ? ' · loading spans…' : ''}
            {traceId ? (
              <>
                {' '}
                · <code>{traceId}</code>
              </>
            ) : null}
          </p>
        </div>
        <div className="actions">
          {savedFile ? <ReplayControls source={{ file: savedFile }} /> : session ? <ReplayControls source={{ traceIds: session.traceIds }} /> : null}
          {savedFile ? <ExportReproButton file={savedFile} /> : null}
          {traceId && session ? <SaveTraceForm traceIds={[traceId]} suggestedName={`trace-${traceId.slice(0, 8)}`} /> : null}
        </div>
      </header>
      {error ? (
        <p role="alert" className="error-banner">
          {error} <Link href="/">Back home</Link>
        </p>
      ) : null}
      {graph ? (
        <TraceWorkspace
          graph={graph}
          spans={collection.spans}
          spanViewUrl={viewUrl}
          onSpansNeeded={onSpansNeeded}
          spansLoaded={spansWanted && !spansLoading}
          resumeSource={savedFile ? { file: savedFile } : { traceIds: sessionIds }}
          initialNodeId={props.initialNodeId}
          initialTab={props.initialTab}
        />
      ) : (
        <p className="empty">{error ? '' : 'Loading…'}</p>
      )}
    </main>
  );
}
