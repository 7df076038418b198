import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { ResumeRequestSchema } from '@/lib/runtime/runner-protocol';
import { resumeRun } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

/** Without `resume`, the scenario's scripted answer is used. */
const ResumeBodySchema = z.object({ resume: ResumeRequestSchema.optional() });

export async function POST(request: Request, context: { params: Promise<{ runId: string }> }): Promise<Response> {
  try {
    const { runId } = await context.params;
    const { resume } = await readJsonBody(request, ResumeBodySchema);
    return Response.json({ run: resumeRun(getAppContext(), runId, resume) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
