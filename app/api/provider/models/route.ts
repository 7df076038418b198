import { getAppContext } from '@/lib/server/app-context';

export const dynamic = 'force-dynamic';

/** The endpoint's models (its `GET /models`), or why they could not be listed, as data. */
export async function GET(): Promise<Response> {
  return Response.json(await getAppContext().providers.listModels());
}
