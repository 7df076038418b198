import type { TraceSource } from '../../contract/trace-source';
import { LoopscopeError } from '../../errors';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';

// The schema is part of the wire contract; server code keeps importing it from here.
export { TraceSourceSchema, type TraceSource } from '../../contract/trace-source';

/** The spans of a source; a trace that is not in the store is NOT_FOUND. */
export async function loadTraceSource(context: Pick<AppContext, 'store'>, source: TraceSource): Promise<Span[]> {
  if ('file' in source) return context.store.loadSaved(source.file);
  const spans: Span[] = [];
  for (const traceId of source.traceIds) {
    const trace = await context.store.get(traceId);
    if (!trace) throw new LoopscopeError('NOT_FOUND', `No trace ${traceId}.`);
    spans.push(...trace);
  }
  return spans;
}
