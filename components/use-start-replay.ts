'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ReplayRequest } from '@/lib/contract/replay';
import type { RunResponse } from '@/lib/contract/run-session';
import type { TraceSource } from '@/lib/contract/trace-source';
import { apiJson } from './api-client';

/** Starts a replay (or fork) of a recording and opens its page; `error` is the server's sentence. */
export function useStartReplay() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const start = async (body: { source: TraceSource; liveTools: boolean; mode?: ReplayRequest['mode']; fork?: unknown }) => {
    setBusy(true);
    setError(undefined);
    try {
      const { run } = await apiJson<RunResponse>('/api/replay', { method: 'POST', body });
      router.push(`/runs/${run.runId}`);
    } catch (startError) {
      setError((startError as Error).message);
      setBusy(false);
    }
  };
  return { start, busy, error };
}
