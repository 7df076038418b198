import { traceIdFrom } from '../../contract/ids';
import { LoopscopeError } from '../../errors';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';

/**
 * The spans of one stored trace, for the routes that serve a trace by id.
 * @throws LoopscopeError INVALID_ARGUMENT for a malformed id, NOT_FOUND for an unknown one.
 */
export async function loadTraceById(context: Pick<AppContext, 'store'>, traceId: string): Promise<Span[]> {
  const spans = await context.store.get(traceIdFrom(traceId));
  if (!spans) throw new LoopscopeError('NOT_FOUND', `No trace ${traceId}.`);
  return spans;
}
