import type { Span } from '../../spans/span';
import type { EventBus } from '../live/event-bus';
import type { AppendOptions, TraceStore } from '../../store/trace-store';

/**
 * Stores spans (the receiver's, an import's, a runner's) and tells the pages: one `spans`
 * event per trace, then one `traces-changed` for all. The events go out once the spans are in
 * the store's queue, not after their commit: every read of the store answers after that commit
 * (read-your-writes), so a page that reads on an event sees the spans. Resolves once they are
 * committed; rejects when the commit fails (the caller answers the error, as before; the pages
 * were told of spans the store then does not hold). The spans are grouped by trace once, in one pass, not filtered once per trace.
 */
export async function ingestSpans(
  context: { store: Pick<TraceStore, 'queueAppend'>; bus: Pick<EventBus, 'publish'>; commit?: AppendOptions['commit'] },
  spans: Span[],
): Promise<void> {
  if (spans.length === 0) return;
  const { traceIds, committed } = context.store.queueAppend(spans, { commit: context.commit });
  const byTrace = new Map<string, Span[]>();
  for (const span of spans) {
    const group = byTrace.get(span.traceId);
    if (group) group.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  for (const traceId of traceIds) context.bus.publish({ type: 'spans', traceId, spans: byTrace.get(traceId) ?? [] });
  context.bus.publish({ type: 'traces-changed', traceIds });
  await committed;
}
