import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { ResumeFromTraceSchema } from '@/lib/contract/resume-answers';
import type { ResumeResponse } from '@/lib/contract/run-session';
import { resumeFromTrace } from '@/lib/server/services/resume-service';

export const dynamic = 'force-dynamic';

/** Resumes an interrupted generate of a captured or saved trace with hand-written answers. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: ResumeFromTraceSchema });
    const answer: ResumeResponse = await resumeFromTrace(getAppContext(), body);
    return Response.json(answer, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
