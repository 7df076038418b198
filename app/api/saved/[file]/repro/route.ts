import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http';
import { exportRepro, reproFileName } from '@/lib/replay/export-repro';
import { readRecording } from '@/lib/replay/read-recording';

export const dynamic = 'force-dynamic';

/** A standalone TypeScript file that reproduces a saved file's run with plain genkit, as a download. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await context.params;
    const name = decodeURIComponent(file);
    const { store } = getAppContext();
    const recording = readRecording(await store.loadSaved(name));
    // The file's one-line description (the shipped bug traces have one) titles the repro.
    const title = (await store.listSaved()).find((saved) => saved.file === name)?.description;
    const fileName = reproFileName(name);
    const text = exportRepro(recording, { title, source: `the saved trace ${name}`, fileName });
    return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${fileName}"` } });
  } catch (error) {
    return errorResponse(error);
  }
}
