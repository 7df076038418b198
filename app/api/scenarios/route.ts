import { getAppContext } from '@/lib/server/app-context';
import { scenarioList } from '@/lib/server/services/scenario-list';

export const dynamic = 'force-dynamic';

/** Scenarios and tools as the runner loaded them, with any load problems. */
export async function GET(): Promise<Response> {
  return Response.json(await scenarioList(getAppContext()));
}
