import { AttachAckRequestSchema, AttachHookRequestSchema, AttachWaitRequestSchema } from '@/lib/contract/attach-step';
import { LoopscopeError } from '@/lib/errors';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { bearerToken } from '@/lib/server/request-guard';

export const dynamic = 'force-dynamic';

/**
 * The door of Loopscope's step middleware inside an attached app (lib/contract/attach-step.ts):
 * `hook` (a model call or tool execution was reached), `wait` (for the decision at a pause),
 * `ack` (the app checked the decision). Each request carries its run's step token; the proxy
 * lets only requests without an Origin header reach this door (no web page can).
 */
export async function POST(request: Request, context: { params: Promise<{ op: string }> }): Promise<Response> {
  try {
    const { op } = await context.params;
    const steps = getAppContext().attachedSteps;
    const token = bearerToken(request.headers.get('authorization'));
    if (op === 'hook') {
      const body = await readJsonBody({ request, schema: AttachHookRequestSchema });
      return Response.json(steps.hook(steps.authorize(body.runId, token), body));
    }
    if (op === 'wait') {
      const body = await readJsonBody({ request, schema: AttachWaitRequestSchema });
      return Response.json(await steps.wait(steps.authorize(body.runId, token), body.pauseId));
    }
    if (op === 'ack') {
      const body = await readJsonBody({ request, schema: AttachAckRequestSchema });
      steps.ack(steps.authorize(body.runId, token), body);
      return Response.json({ ok: true });
    }
    throw new LoopscopeError('NOT_FOUND', `No step operation "${op}": there are hook, wait and ack.`);
  } catch (error) {
    return errorResponse(error);
  }
}
