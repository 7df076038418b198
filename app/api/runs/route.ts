import { z } from 'zod';
import { getAppContext } from '@/lib/server/app-context';
import { errorResponse, readJsonBody } from '@/lib/server/http';
import { RunModeSchema } from '@/lib/runtime/step-protocol';
import { startRun } from '@/lib/server/run-service';

export const dynamic = 'force-dynamic';

const StartRunSchema = z.object({ scenario: z.string().min(1).max(200), mode: RunModeSchema.optional() });

export async function GET(): Promise<Response> {
  return Response.json({ runs: getAppContext().runs.list() });
}

/** Starts a scenario run; answers at once, progress arrives on the event stream. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { scenario, mode } = await readJsonBody(request, StartRunSchema);
    return Response.json({ run: await startRun(getAppContext(), scenario, mode) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
