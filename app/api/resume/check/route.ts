import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { ResumeFromTraceSchema, type ResumeCheckResponse } from '@/lib/contract/resume-answers';
import { checkResumeFromTrace } from '@/lib/server/resume-service';

export const dynamic = 'force-dynamic';

/**
 * Checks hand-written answers to an interrupt without running anything: genkit's rules
 * (errors), what this runner cannot run (errors too), genkit 1.42 pitfalls (warnings), and the
 * exact payload. POST because the answers travel in the body; it changes nothing.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: ResumeFromTraceSchema });
    const { validation, blockers } = await checkResumeFromTrace(getAppContext(), body);
    const answer: ResumeCheckResponse = { errors: [...validation.errors, ...blockers], warnings: validation.warnings, payload: validation.payload };
    return Response.json(answer);
  } catch (error) {
    return errorResponse(error);
  }
}
