'use client';

import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '@/lib/server/event-bus';
import { eventStreamUrl } from './api-client';

const EVENT_TYPES: LiveEvent['type'][] = ['spans', 'span-start', 'run', 'traces-changed', 'runner'];

/**
 * Subscribes to the server's event stream for the page's lifetime. Returns whether the
 * stream is connected; EventSource reconnects by itself after a drop, and `onReady` runs
 * again then.
 */
export function useLiveEvents(
  filter: { runId?: string; traceIds?: string[] },
  onEvent: (event: LiveEvent) => void,
  /** Called each time the stream (re)connects: fetch stored state then, so nothing falls between. */
  onReady?: () => void,
): boolean {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const readyHandler = useRef(onReady);
  readyHandler.current = onReady;
  const [connected, setConnected] = useState(false);
  const key = `${filter.runId ?? ''}|${(filter.traceIds ?? []).join(',')}`;
  useEffect(() => {
    const source = new EventSource(eventStreamUrl(filter));
    source.addEventListener('ready', () => {
      setConnected(true);
      readyHandler.current?.();
    });
    source.onerror = () => setConnected(false);
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        handler.current(JSON.parse((message as MessageEvent<string>).data) as LiveEvent);
      });
    }
    return () => source.close();
    // The filter's identity is its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return connected;
}
