import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { answerStepDoor } from '@/lib/server/attach/step-door';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** The step middleware of an attached app asks here (lib/server/attach/step-door.ts). */
export async function POST(request: Request, context: { params: Promise<{ op: string }> }): Promise<Response> {
  try {
    const { op } = await context.params;
    const body = await readJsonBody({ request, schema: z.unknown() });
    return Response.json(await answerStepDoor({ steps: getAppContext().attachedSteps, op, authorization: request.headers.get('authorization'), body }));
  } catch (error) {
    return errorResponse(error);
  }
}
