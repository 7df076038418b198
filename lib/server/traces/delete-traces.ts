import type { TraceDeleteRequest, TraceDeleteResponse } from '../../contract/trace-list';
import type { AppContext } from '../app-context-ports';

/**
 * Deletes captured traces (the given ones or all; saved files stay) and tells live pages, so
 * every open list drops them at once.
 * @throws LoopscopeError NOT_FOUND naming ids that are not captured (nothing is deleted).
 */
export async function deleteTraces(context: Pick<AppContext, 'store' | 'bus'>, request: TraceDeleteRequest): Promise<TraceDeleteResponse> {
  const { traceIds } = await context.store.delete('all' in request ? { all: true } : { traceIds: request.traceIds });
  if (traceIds.length > 0) context.bus.publish({ type: 'traces-changed', traceIds });
  return { deleted: traceIds };
}
