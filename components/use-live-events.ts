'use client';

import { useEffect, useRef, useState } from 'react';
import { LIVE_EVENT_TYPES, type LiveEvent as WireLiveEvent } from '@/lib/contract/live-events';
import type { RunGraph } from '@/lib/graph/run-graph';
import { apiJson, eventStreamUrl } from './api-client';
import { useSessionEpoch } from './session-gate';

/** An event as the page receives it: a `graph` event carries Graph JSON. */
export type LiveEvent = WireLiveEvent<RunGraph>;

/**
 * Subscribes to the server's event stream for the page's lifetime. Returns whether the
 * stream is connected; EventSource reconnects by itself after a drop, and `onReady` runs
 * again then.
 */
export function useLiveEvents({
  filter,
  onEvent,
  onReady,
}: {
  filter: { runId?: string; traceIds?: string[] };
  onEvent: (event: LiveEvent) => void;
  /** Called each time the stream (re)connects: fetch stored state then, so nothing falls between. */
  onReady?: () => void;
}): boolean {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const readyHandler = useRef(onReady);
  readyHandler.current = onReady;
  const [connected, setConnected] = useState(false);
  const key = `${filter.runId ?? ''}|${(filter.traceIds ?? []).join(',')}`;
  // A new session (after the prompt) reopens a stream the server had refused.
  const sessionEpoch = useSessionEpoch();
  useEffect(() => {
    const source = new EventSource(eventStreamUrl(filter));
    source.addEventListener('ready', () => {
      setConnected(true);
      readyHandler.current?.();
    });
    // The server dropped this stream for falling behind (lib/server/live/event-stream.ts): it closes
    // next, EventSource reconnects, and `ready` re-syncs the page from stored state.
    source.addEventListener('missed', () => setConnected(false));
    source.onerror = () => {
      setConnected(false);
      // EventSource gives up for good when the server answers with an error (a 401 after a
      // restart with a new token) and says nothing more: ask the session route, whose 401
      // brings the token prompt back. A dropped connection (CONNECTING) retries by itself.
      if (source.readyState === EventSource.CLOSED) apiJson('/api/session').catch(() => {});
    };
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        handler.current(JSON.parse((message as MessageEvent<string>).data) as LiveEvent);
      });
    }
    return () => source.close();
    // The filter's identity is its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, sessionEpoch]);
  return connected;
}
