import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { ResumeFromTraceSchema, resumeVerdictOf, type ResumeCheckResponse } from '@/lib/contract/resume-answers';
import { checkResumeFromTrace } from '@/lib/server/services/resume-service';
import { resumeSnippet } from '@/lib/runtimes/validate-resume';

export const dynamic = 'force-dynamic';

/**
 * Checks hand-written answers to a paused call without running anything: its runtime's rules
 * (errors), what this runner cannot run (errors too), known pitfalls (warnings), what cannot be
 * checked (unchecked, with the verdict saying so), the exact
 * payload and the payload as the app's own code. POST because the answers travel in the body; it changes nothing.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: ResumeFromTraceSchema });
    const { validation, blockers, resumeContext } = await checkResumeFromTrace(getAppContext(), body);
    const errors = [...validation.errors, ...blockers];
    const unchecked = validation.unchecked ?? [];
    const answer: ResumeCheckResponse = {
      verdict: resumeVerdictOf({ errors, unchecked }),
      errors,
      warnings: validation.warnings,
      unchecked,
      payload: validation.payload,
      snippet: resumeSnippet({ context: resumeContext, payload: validation.payload }),
    };
    return Response.json(answer);
  } catch (error) {
    return errorResponse(error);
  }
}
