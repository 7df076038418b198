import { LoopscopeError } from '../../errors';
import { driverOf } from '../../runtimes/drivers';
import { readReplayable } from '../../runtimes/read-recording';
import type { AppContext } from '../app-context-ports';

/**
 * A saved file's run as one standalone program, by the driver of the runtime that recorded it
 * (TypeScript with plain genkit, `ai` alone, or a Go program with genkit Go alone), titled by the
 * file's one-line description (the shipped bug traces have one).
 * @throws LoopscopeError NOT_FOUND for a missing file, FAILED_PRECONDITION when there is nothing to export.
 */
export async function savedFileRepro(context: Pick<AppContext, 'store'>, name: string): Promise<{ fileName: string; text: string }> {
  const read = readReplayable(await context.store.loadSaved(name));
  const repro = driverOf(read.runtime)?.repro;
  if (!repro) throw new LoopscopeError('FAILED_PRECONDITION', `Recordings of ${read.runtime} cannot be exported as a repro.`);
  const title = (await context.store.listSaved()).find((saved) => saved.file === name)?.description;
  const fileName = repro.fileName(name);
  return { fileName, text: await repro.write({ recording: read.recording, title, source: `the saved trace ${name}`, fileName }) };
}
