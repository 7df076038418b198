import type { TraceSource } from '../../contract/trace-source';
import { LoopscopeError } from '../../errors';
import type { RecordingSource } from '../../runner/runner-protocol';
import type { TraceStore } from '../../store/trace-store';

/**
 * Where the runner finds a source's spans: a saved file's absolute path, or each captured
 * trace with the file that holds it (the store's copy, else a saved file holding it). The
 * runner reads them itself; nothing is encoded or sent but paths.
 * @throws LoopscopeError NOT_FOUND (no such file or trace), INVALID_ARGUMENT (a bad file name).
 */
export async function recordingSourceOf(store: Pick<TraceStore, 'savedFile' | 'traceFile'>, source: TraceSource): Promise<RecordingSource> {
  if ('file' in source) return { savedFile: await store.savedFile(source.file) };
  const traces: { traceId: string; file: string }[] = [];
  for (const traceId of source.traceIds) {
    const found = await store.traceFile(traceId);
    if (!found) throw new LoopscopeError('NOT_FOUND', `No trace ${traceId}.`);
    traces.push({ traceId, file: found.path });
  }
  return { traces };
}
