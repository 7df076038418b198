/**
 * The door of Loopscope's step middleware inside an attached app (lib/contract/attach-step.ts):
 * `hook` (a model call or tool execution was reached), `wait` (for the decision at a pause),
 * `ack` (the app checked the decision). Each request carries its run's step token; the request
 * guard lets only requests without an Origin header reach it (no web page can). The Next route
 * (app/attach/step/[op]) is a shell over this.
 */
import { AttachAckRequestSchema, AttachHookRequestSchema, AttachWaitRequestSchema } from '../../contract/attach-step';
import { LoopscopeError } from '../../errors';
import { parseRequestValue } from '../http/http';
import { bearerToken } from '../http/request-guard';
import type { AttachedSteps } from './attached-steps';

/**
 * Answers one request of the door.
 * @throws LoopscopeError NOT_FOUND (unknown operation, run or pause), UNAUTHENTICATED (wrong token), INVALID_ARGUMENT (bad body).
 */
export async function answerStepDoor(options: { steps: AttachedSteps; op: string; authorization: string | null; body: unknown }): Promise<unknown> {
  const { steps, op, body } = options;
  const token = bearerToken(options.authorization);
  if (op === 'hook') {
    const request = parseRequestValue({ value: body, schema: AttachHookRequestSchema });
    return steps.hook(steps.authorize(request.runId, token), request);
  }
  if (op === 'wait') {
    const request = parseRequestValue({ value: body, schema: AttachWaitRequestSchema });
    return steps.wait(steps.authorize(request.runId, token), request.pauseId);
  }
  if (op === 'ack') {
    const request = parseRequestValue({ value: body, schema: AttachAckRequestSchema });
    steps.ack(steps.authorize(request.runId, token), request);
    return { ok: true };
  }
  throw new LoopscopeError('NOT_FOUND', `No step operation "${op}": there are hook, wait and ack.`);
}
