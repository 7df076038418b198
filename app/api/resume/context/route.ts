import { ResumeContextRequestSchema, type ResumeContextResponse } from '@/lib/contract/resume-context';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { resumeContextView } from '@/lib/server/services/resume-context-view';

export const dynamic = 'force-dynamic';

/**
 * What the resume workbench shows of an interrupted generate (its requests, the tools it
 * offered, an example answer each), read from the recorded spans here. POST because the
 * source travels in the body, as for `/api/resume/check`; it changes nothing.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: ResumeContextRequestSchema });
    const answer: ResumeContextResponse = { context: await resumeContextView(getAppContext(), body) };
    return Response.json(answer);
  } catch (error) {
    return errorResponse(error);
  }
}
