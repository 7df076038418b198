import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, parseRequestValue, readJsonBody } from '@/lib/server/http';
import { StartRunRequestSchema } from '@/lib/contract/run-session';
import { RunActionRequestSchema } from '@/lib/contract/runtimes';
import { startRun } from '@/lib/server/run-service';
import { runInRuntime } from '@/lib/server/attach/attach-service';
import { startAttachedGenerate } from '@/lib/server/attach/attached-generate';
import { LoopscopeError } from '@/lib/errors';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ runs: getAppContext().runs.list() });
}

/**
 * Starts a scenario run (`{scenario, mode?, provider?}`: answers at once, 202, progress on the
 * event stream), or runs an action of an attached app (`{runtimeId, action, input}`: answers when
 * it ended, 200 `{result}` with its outcome and traceId) — or, with `mode`, a stepped generate in
 * it (answers at once, 202 `{run}`, like a scenario's run).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const value = await readJsonBody({ request, schema: z.unknown() });
    const context = getAppContext();
    if (typeof value === 'object' && value !== null && 'runtimeId' in value) {
      const body = parseRequestValue({ value, schema: RunActionRequestSchema });
      if (body.mode) {
        if (!['/util/generate', 'generate'].includes(body.action)) throw new LoopscopeError('INVALID_ARGUMENT', `Only a generate (/util/generate) can be stepped, not ${body.action}: run it without mode.`);
        return Response.json({ run: await startAttachedGenerate({ context, runtimeId: body.runtimeId, input: body.input, mode: body.mode }) }, { status: 202 });
      }
      return Response.json({ result: await runInRuntime({ attachment: context.attachment, request: body }) });
    }
    const { scenario, mode, provider } = parseRequestValue({ value, schema: StartRunRequestSchema });
    return Response.json({ run: await startRun({ context, scenario, mode, provider }) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
