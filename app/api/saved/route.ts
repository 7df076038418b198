import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/** The trace files in traces/ (shipped examples and saved repros). */
export async function GET(): Promise<Response> {
  try {
    return Response.json({ files: await getAppContext().store.listSaved() });
  } catch (error) {
    return errorResponse(error);
  }
}
