import { spanIdFrom, traceIdFrom } from '../../contract/ids';
import type { SpanView } from '../../contract/span-view';
import { LoopscopeError } from '../../errors';
import { openSpanFromStart } from '../../contract/open-span';
import type { AppContext } from '../app-context-ports';
import { spanView } from './span-view';

/**
 * The detail view of one span: from the stored trace (captured, or a saved file holding it),
 * else — a span of a live run that has started and not ended — from its start.
 * @throws LoopscopeError INVALID_ARGUMENT for malformed ids, NOT_FOUND when no such span is known.
 */
export async function loadSpanView(context: Pick<AppContext, 'store' | 'runs'>, ids: { traceId: string; spanId: string }): Promise<SpanView> {
  const traceId = traceIdFrom(ids.traceId);
  const spanId = spanIdFrom(ids.spanId);
  const stored = (await context.store.get(traceId))?.find((span) => span.spanId === spanId);
  if (stored) return spanView(stored);
  const started = context.runs.spanStart(traceId, spanId);
  if (started) return spanView(openSpanFromStart(started));
  throw new LoopscopeError('NOT_FOUND', `No span ${spanId} in trace ${traceId}.`);
}

/**
 * The detail view of one span of a saved file.
 * @throws LoopscopeError INVALID_ARGUMENT for malformed ids or file name, NOT_FOUND when the file has no such span.
 */
export async function loadSavedSpanView(context: Pick<AppContext, 'savedGraphs'>, options: { file: string; traceId: string; spanId: string }): Promise<SpanView> {
  const traceId = traceIdFrom(options.traceId);
  const spanId = spanIdFrom(options.spanId);
  const span = await context.savedGraphs.span({ file: options.file, traceId, spanId });
  if (!span) throw new LoopscopeError('NOT_FOUND', `No span ${spanId} of trace ${traceId} in ${options.file}.`);
  return spanView(span);
}
