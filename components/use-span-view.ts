'use client';

import { useEffect, useState } from 'react';
import type { SpanView } from '@/lib/contract/span-view';
import { apiJson } from './api-client';

/**
 * The server's detail view of one span, fetched when `url` is set and again whenever
 * `version` changes (a live span that ended, a node whose status moved on).
 */
export function useSpanView(url: string | undefined, version: string): { view?: SpanView; error?: string } {
  const [state, setState] = useState<{ url?: string; view?: SpanView; error?: string }>({});
  useEffect(() => {
    if (!url) return;
    let cancelled = false;
    apiJson<SpanView>(url).then(
      (view) => !cancelled && setState({ url, view }),
      (error: Error) => !cancelled && setState({ url, error: error.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [url, version]);
  // The answer for another span never shows under this one.
  return state.url === url ? { view: state.view, error: state.error } : {};
}
