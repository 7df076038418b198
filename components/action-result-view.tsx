'use client';
/** How an action run in an attached app ended (POST /api/runs {runtimeId, action, input}): outcome, time, a link to its trace, its output. */
import Link from 'next/link';
import type { RunActionResult } from '@/lib/contract/runtimes';

export function ActionResultView({ result }: { result: RunActionResult }) {
  return (
    <div className="action-result" data-testid="action-result" data-outcome={result.outcome}>
      <p>
        <strong>{result.outcome === 'interrupted' ? 'Interrupted: waiting for an answer' : result.outcome === 'ok' ? 'Finished' : `Failed: ${result.error?.code}`}</strong> in {result.durationMs} ms
        {result.traceId ? (
          <>
            {' · '}
            <Link href={`/traces/${result.traceId}`}>{result.outcome === 'interrupted' ? 'Open the trace to answer it' : 'Open the trace'}</Link>
          </>
        ) : null}
      </p>
      {result.error ? <p>{result.error.message}</p> : null}
      {result.note ? <p className="hint">{result.note}</p> : null}
      {result.output !== undefined ? <pre>{JSON.stringify(result.output, null, 2)}</pre> : null}
    </div>
  );
}
