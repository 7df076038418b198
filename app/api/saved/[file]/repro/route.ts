import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { exportRepro, reproFileName } from '@/lib/runtimes/genkit-js/repro/export-repro';
import { exportAiSdkRepro } from '@/lib/runtimes/ai-sdk/repro/export-ai-sdk-repro';
import { exportGoRepro, goReproFileName } from '@/lib/runtimes/genkit-go/repro/export-go-repro';
import { readReplayable } from '@/lib/replay/read-recording';

export const dynamic = 'force-dynamic';

/** A standalone file that reproduces a saved file's run: TypeScript with plain genkit (or `ai` alone, for an AI SDK recording), or a Go program with genkit Go alone for a genkit Go recording; as a download. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await context.params;
    const name = decodeURIComponent(file);
    const { store } = getAppContext();
    const read = readReplayable(await store.loadSaved(name));
    // The file's one-line description (the shipped bug traces have one) titles the repro.
    const title = (await store.listSaved()).find((saved) => saved.file === name)?.description;
    const fileName = read.runtime === 'genkit-go' ? goReproFileName(name) : reproFileName(name);
    const about = { title, source: `the saved trace ${name}`, fileName };
    const text = read.runtime === 'ai-sdk' ? exportAiSdkRepro(read.recording, about) : read.runtime === 'genkit-go' ? exportGoRepro(read.recording, about) : exportRepro(read.recording, about);
    return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${fileName}"` } });
  } catch (error) {
    return errorResponse(error);
  }
}
