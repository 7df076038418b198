import { z } from 'zod';
import { LoopscopeError } from '../errors';
import type { Span } from '../trace/span';
import type { AppContext } from './app-context';

const TraceId = z.string().regex(/^[0-9a-f]{32}$/, 'trace ids are 32 hex characters');

/** Where recorded spans come from in a request: captured traces (a session), or a saved file in traces/. */
export const TraceSourceSchema = z.union([z.object({ traceIds: z.array(TraceId).min(1).max(50) }), z.object({ file: z.string().min(1).max(200) })]);
export type TraceSource = z.infer<typeof TraceSourceSchema>;

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
