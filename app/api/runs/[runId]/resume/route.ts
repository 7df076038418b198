import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { RunResumeRequestSchema } from '@/lib/contract/resume-answers';
import { resumeRun } from '@/lib/server/services/run-service';

export const dynamic = 'force-dynamic';

/** Resumes an interrupted scenario run; without `resume`, the scenario's scripted answer is used. */
export async function POST(request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const { resume } = await readJsonBody({ request, schema: RunResumeRequestSchema });
    return Response.json({ run: resumeRun({ context: getAppContext(), runId, resume }) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
