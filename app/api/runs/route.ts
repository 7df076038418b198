import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, parseRequestValue, readJsonBody } from '@/lib/server/http';
import { StartRunRequestSchema } from '@/lib/contract/run-session';
import { RunActionRequestSchema } from '@/lib/contract/runtimes';
import { startRun } from '@/lib/server/run-service';
import { runInRuntime } from '@/lib/server/attach/attach-service';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ runs: getAppContext().runs.list() });
}

/**
 * Starts a scenario run (`{scenario, mode?, provider?}`: answers at once, 202, progress on the
 * event stream), or runs an action of an attached app (`{runtimeId, action, input}`: answers when
 * it ended, 200 `{result}` with its outcome and traceId).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const value = await readJsonBody({ request, schema: z.unknown() });
    const context = getAppContext();
    if (typeof value === 'object' && value !== null && 'runtimeId' in value) {
      const body = parseRequestValue({ value, schema: RunActionRequestSchema });
      return Response.json({ result: await runInRuntime({ attachment: context.attachment, request: body }) });
    }
    const { scenario, mode, provider } = parseRequestValue({ value, schema: StartRunRequestSchema });
    return Response.json({ run: await startRun({ context, scenario, mode, provider }) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
