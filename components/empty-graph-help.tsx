'use client';

import { useMemo } from 'react';
import { DIALECTS } from '@/lib/runtimes/index';
import { flattenSpanTree, type SpanTreeNode } from '@/lib/spans/span-tree';

/** The most frequent span names of a role, for "what did arrive". */
function commonNames(nodes: readonly SpanTreeNode[], limit: number): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const node of nodes) counts.set(node.label, (counts.get(node.label) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)).slice(0, limit);
}

/**
 * What an empty graph says: which spans did arrive (by kind, with their most common names),
 * which runtimes Loopscope reads, and how to get spans out of genkit and the AI SDK — neither
 * sends anything when only `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
 */
export function EmptyGraphHelp(props: { spans: readonly SpanTreeNode[]; spansLoaded: boolean }) {
  const flat = useMemo(() => flattenSpanTree(props.spans), [props.spans]);
  const byRole = useMemo(() => {
    const roles = new Map<string, number>();
    for (const node of flat) roles.set(node.role, (roles.get(node.role) ?? 0) + 1);
    return [...roles];
  }, [flat]);
  const endpoint = typeof window === 'undefined' ? 'http://127.0.0.1:4747' : window.location.origin;
  return (
    <div className="empty-graph" data-testid="empty-graph">
      {!props.spansLoaded ? (
        <p>No generate calls in these spans yet.</p>
      ) : flat.length === 0 ? (
        <p data-testid="empty-graph-found">No spans have arrived yet.</p>
      ) : (
        <p data-testid="empty-graph-found">
          {flat.length} span{flat.length === 1 ? '' : 's'} arrived, but none is a tool-loop call Loopscope draws:{' '}
          {byRole.map(([role, count]) => `${count} ${role}`).join(', ')} (most common names:{' '}
          {commonNames(flat, 4)
            .map((entry) => `${entry.name}${entry.count > 1 ? ` ×${entry.count}` : ''}`)
            .join(', ')}
          ).
        </p>
      )}
      <p>
        Loopscope draws the tool loops of: {DIALECTS.map((dialect) => dialect.title).join(', ')}. Other spans are kept and listed in the
        span tree and the timeline.
      </p>
      <details>
        <summary>How to send spans here</summary>
        <p>
          Setting <code>OTEL_EXPORTER_OTLP_ENDPOINT</code> alone sends nothing from genkit or the AI SDK: the app must start an
          OpenTelemetry SDK with an OTLP exporter. Point it at <code>{endpoint}</code> (traces go to <code>{endpoint}/v1/traces</code>).
        </p>
        <ul>
          {DIALECTS.map((dialect) => (
            <li key={dialect.id}>
              <strong>{dialect.title}</strong>: {dialect.explains.sendSpans}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
