import { LoopscopeError } from '../../errors';
import { buildRunGraph } from '../../graph/build-run-graph';
import type { AppContext } from '../app-context-ports';
import { loadTraceSource } from './trace-source';

/**
 * The Graph JSON text of the recording a replay (or fork) run replays: a saved file's cached
 * graph, or the captured traces' graph built now — drawn beside the replayed one.
 * @throws LoopscopeError NOT_FOUND (no such run, or its recording is gone), FAILED_PRECONDITION (not a replay).
 */
export async function recordedGraphJson(context: Pick<AppContext, 'runs' | 'store' | 'savedGraphs'>, runId: string): Promise<string> {
  const run = context.runs.get(runId);
  if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId} (runs are kept in memory until the server restarts).`);
  if (!run.replay) throw new LoopscopeError('FAILED_PRECONDITION', `Run ${runId} is not a replay: it has no recording to draw beside it.`);
  const { source } = run.replay;
  if ('file' in source) return context.savedGraphs.graphJson(source.file);
  return JSON.stringify(buildRunGraph(await loadTraceSource(context, source)));
}
