import type { Span } from '../trace/span';
import type { EventBus } from './event-bus';
import type { TraceStore } from '../trace/trace-store';

/**
 * Stores spans (the receiver's, an import's, a dead runner's) and tells the pages: one `spans`
 * event per trace, then one `traces-changed` for all. The spans are grouped by trace once,
 * in one pass, not filtered once per trace.
 */
export async function ingestSpans(context: { store: Pick<TraceStore, 'append'>; bus: Pick<EventBus, 'publish'> }, spans: Span[]): Promise<void> {
  if (spans.length === 0) return;
  const { traceIds } = await context.store.append(spans);
  const byTrace = new Map<string, Span[]>();
  for (const span of spans) {
    const group = byTrace.get(span.traceId);
    if (group) group.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  for (const traceId of traceIds) context.bus.publish({ type: 'spans', traceId, spans: byTrace.get(traceId) ?? [] });
  context.bus.publish({ type: 'traces-changed', traceIds });
}
