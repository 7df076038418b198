'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { RunSession } from '@/lib/server/run-registry';
import { apiJson } from './api-client';
import type { ResumeSource } from './resume-workbench';

/** Starts a replay (or fork) of a recording and opens its page; `error` is the server's sentence. */
export function useStartReplay() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const start = async (body: { source: ResumeSource; liveTools: boolean; mode?: 'strict' | 'lenient'; fork?: unknown }) => {
    setBusy(true);
    setError(undefined);
    try {
      const { run } = await apiJson<{ run: RunSession }>('/api/replay', { method: 'POST', body });
      router.push(`/runs/${run.runId}`);
    } catch (startError) {
      setError((startError as Error).message);
      setBusy(false);
    }
  };
  return { start, busy, error };
}
