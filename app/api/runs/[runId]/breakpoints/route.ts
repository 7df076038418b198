import { BreakpointsSchema } from '@/lib/contract/run-mode';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { setBreakpoints } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Sets or clears the breakpoints of a running run (also while it is paused). */
export async function POST(request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const breakpoints = await readJsonBody({ request, schema: BreakpointsSchema });
    return Response.json({ run: await setBreakpoints({ context: getAppContext(), runId, breakpoints }) });
  } catch (error) {
    return errorResponse(error);
  }
}
