'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { CompareResponse } from '@/lib/contract/compare';
import type { ScenarioListResponse } from '@/lib/contract/runner-status';
import { apiJson } from './api-client';

type Pair = { go: string; js: string; title: string };

/**
 * One scenario, two runtimes: each genkit Go scenario that mirrors a genkit JS one, run on both
 * (their scripted answers included) and compared — what is the same, then each difference in
 * outcome, span shape and wire shape, with both runs' traces a click away. The teaching view for
 * "the wire format is unchanged", and a way to find cross-runtime bugs.
 */
export function ComparePage() {
  const [pairs, setPairs] = useState<Pair[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const [result, setResult] = useState<{ scenario: string; comparison: CompareResponse } | undefined>();
  useEffect(() => {
    apiJson<ScenarioListResponse>('/api/scenarios').then(
      (list) =>
        setPairs(
          list.scenarios.flatMap((scenario) => (scenario.runtime === 'genkit-go' && scenario.mirrors ? [{ go: scenario.name, js: scenario.mirrors, title: scenario.title }] : [])),
        ),
      (failure: Error) => setError(failure.message),
    );
  }, []);
  const compare = async (scenario: string) => {
    setBusy(scenario);
    setError(undefined);
    try {
      setResult({ scenario, comparison: await apiJson<CompareResponse>('/api/compare', { method: 'POST', body: { scenario } }) });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(undefined);
    }
  };
  const traceLinks = (traceIds: string[]) =>
    traceIds.map((traceId, position) => (
      <span key={traceId}>
        {position > 0 ? ', ' : ''}
        <Link href={`/traces/${traceId}`} data-testid="compare-trace-link">
          trace {position + 1}
        </Link>
      </span>
    ));
  return (
    <main className="page compare-page">
      <h1>One scenario, two runtimes</h1>
      <p className="hint">Each genkit Go scenario plays a genkit JS one with the same prompt, script and answers. Run both and see where their outcomes, span shapes and wire shapes differ.</p>
      {error ? (
        <p role="alert" className="error-text" data-testid="compare-error">
          {error}
        </p>
      ) : null}
      {pairs === undefined ? <p className="empty">Reading the scenarios…</p> : null}
      {pairs?.length === 0 ? <p className="empty">No genkit Go scenario names a genkit JS one (the &quot;mirrors&quot; field of tools/go/scenarios/*.json).</p> : null}
      <ul className="compare-pairs">
        {pairs?.map((pair) => (
          <li key={pair.go} data-testid="compare-pair" data-scenario={pair.go}>
            <strong>{pair.js}</strong> (genkit JS) ↔ <strong>{pair.go}</strong> (genkit Go) — {pair.title}{' '}
            <button type="button" disabled={busy !== undefined} onClick={() => void compare(pair.go)} data-testid={`compare-${pair.go}`}>
              {busy === pair.go ? 'Running both…' : 'Run both and compare'}
            </button>
          </li>
        ))}
      </ul>
      {result ? (
        <section className="detail-block" data-testid="compare-result" aria-label={`Comparison of ${result.scenario}`}>
          <h2>
            A: {result.comparison.a.label} ({result.comparison.a.runtimes.join(', ')}) · B: {result.comparison.b.label} ({result.comparison.b.runtimes.join(', ')})
          </h2>
          <p>
            A: {traceLinks(result.comparison.a.traceIds)} · B: {traceLinks(result.comparison.b.traceIds)}
          </p>
          <ul>
            {result.comparison.same.map((line) => (
              <li key={line} className="ok-text" data-testid="compare-same">
                same — {line}
              </li>
            ))}
          </ul>
          {result.comparison.differences.length === 0 ? <p data-testid="compare-none">No differences.</p> : null}
          <table className="compare-table">
            <thead>
              <tr>
                <th>aspect</th>
                <th>where</th>
                <th>A ({result.comparison.a.runtimes.join(', ')})</th>
                <th>B ({result.comparison.b.runtimes.join(', ')})</th>
              </tr>
            </thead>
            <tbody>
              {result.comparison.differences.map((difference) => (
                <tr key={`${difference.aspect}:${difference.where}`} data-testid="compare-difference" data-aspect={difference.aspect}>
                  <td>{difference.aspect}</td>
                  <td>{difference.where}</td>
                  <td>
                    <code>{difference.a}</code>
                  </td>
                  <td>
                    <code>{difference.b}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </main>
  );
}
