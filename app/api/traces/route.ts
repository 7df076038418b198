import { TraceListQuerySchema } from '@/lib/contract/trace-list';
import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { listTraces, queryTraces } from '@/lib/server/traces/list-traces';

export const dynamic = 'force-dynamic';

/**
 * Captured traces, newest first, with their answered / paused status: all of them, or with
 * query parameters (`q`, `status`, `service`, `runtime`, `since`, `limit`, `after`) one page
 * from the store's indexes, with `next` for the page after it.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const params = new URL(request.url).searchParams;
    if (params.size === 0) return Response.json({ traces: await listTraces(getAppContext()) });
    const parsed = TraceListQuerySchema.safeParse(Object.fromEntries(params));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LoopscopeError('INVALID_ARGUMENT', `Invalid query${issue.path.length > 0 ? ` parameter ${issue.path.join('.')}` : ''}: ${issue.message}`);
    }
    return Response.json(await queryTraces(getAppContext(), parsed.data));
  } catch (error) {
    return errorResponse(error);
  }
}
