import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';

export const dynamic = 'force-dynamic';

/** The trace files in traces/ (shipped examples and saved repros). */
export async function GET(): Promise<Response> {
  try {
    const context = getAppContext();
    const files = await context.store.listSaved();
    // Graphs of new or changed files are computed now, in the background, so opening one is fast.
    context.savedGraphs.prewarm(files.filter((file) => !file.error).map((file) => file.file));
    return Response.json({ files });
  } catch (error) {
    return errorResponse(error);
  }
}
