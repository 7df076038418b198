import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http/http';
import { CompareRequestSchema, type CompareResponse } from '@/lib/contract/compare';
import { compareMirroredScenario } from '@/lib/server/services/compare-service';

export const dynamic = 'force-dynamic';

/** Runs a genkit Go scenario and the genkit JS one it mirrors, and compares the two runs. */
export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody({ request, schema: CompareRequestSchema });
    const answer: CompareResponse = await compareMirroredScenario(getAppContext(), body.scenario);
    return Response.json(answer);
  } catch (error) {
    return errorResponse(error);
  }
}
