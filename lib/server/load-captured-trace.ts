import { LoopscopeError } from '../errors';
import type { Span } from '../trace/span';
import type { AppContext } from './app-context';

/**
 * The spans of one stored trace, for the routes that serve a trace by id.
 * @throws LoopscopeError INVALID_ARGUMENT for a malformed id, NOT_FOUND for an unknown one.
 */
export async function loadTraceById(context: AppContext, traceId: string): Promise<Span[]> {
  if (!/^[0-9a-f]{32}$/.test(traceId)) throw new LoopscopeError('INVALID_ARGUMENT', `"${traceId}" is not a trace id (32 hex characters).`);
  const spans = await context.store.get(traceId);
  if (!spans) throw new LoopscopeError('NOT_FOUND', `No trace ${traceId}.`);
  return spans;
}
