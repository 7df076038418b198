'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { CompareResponse } from '@/lib/contract/compare';
import type { ScenarioListResponse } from '@/lib/contract/runner-status';
import { scenarioRuntime } from '@/lib/contract/scenario';
import { dialectTitle } from '@/lib/runtimes/index';
import { apiJson } from './api-client';

/** A scenario (`own`) and the scenario of another runtime it mirrors, each with its runtime's name. */
type Pair = { own: string; ownRuntime: string; mirrored: string; mirroredRuntime: string; title: string };

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
          list.scenarios.flatMap((scenario) => {
            const mirrors = 'mirrors' in scenario ? scenario.mirrors : undefined;
            const mirrored = mirrors ? list.scenarios.find((candidate) => candidate.name === mirrors) : undefined;
            if (!mirrors) return [];
            return [{ own: scenario.name, ownRuntime: dialectTitle(scenarioRuntime(scenario)), mirrored: mirrors, mirroredRuntime: mirrored ? dialectTitle(scenarioRuntime(mirrored)) : '?', title: scenario.title }];
          }),
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
      {pairs?.length === 0 ? <p className="empty">No scenario names one of another runtime that it mirrors (the &quot;mirrors&quot; field of tools/go/scenarios/*.json).</p> : null}
      <ul className="compare-pairs">
        {pairs?.map((pair) => (
          <li key={pair.own} data-testid="compare-pair" data-scenario={pair.own}>
            <strong>{pair.mirrored}</strong> ({pair.mirroredRuntime}) ↔ <strong>{pair.own}</strong> ({pair.ownRuntime}) — {pair.title}{' '}
            <button type="button" disabled={busy !== undefined} onClick={() => void compare(pair.own)} data-testid={`compare-${pair.own}`}>
              {busy === pair.own ? 'Running both…' : 'Run both and compare'}
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
