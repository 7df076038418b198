import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import type { RecordingSource } from './runner-protocol';

/**
 * The spans of a recording the server pointed the runner at, read with lib/store's loadTraceFile as any
 * reader would: a saved file whole, or each captured trace from its file, in the order the
 * server gave (causal order), keeping only that trace's spans (a saved file may hold more).
 * @throws LoopscopeError from loadTraceFile (unreadable or malformed file), naming the file.
 */
export async function loadRecording(source: RecordingSource): Promise<Span[]> {
  if ('savedFile' in source) return loadTraceFile(source.savedFile);
  const spans: Span[] = [];
  for (const { traceId, file } of source.traces) {
    for (const span of await loadTraceFile(file)) if (span.traceId === traceId) spans.push(span);
  }
  return spans;
}
