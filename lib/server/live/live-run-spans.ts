import type { RunSession } from '../../contract/run-session';
import { mergeSpans } from '../../spans/merge-spans';
import { openSpanFromStart } from '../../contract/open-span';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import { loadTraceSource } from '../traces/trace-source';

/**
 * What a run's live graph is drawn from: the spans that started and have not ended yet (as
 * running), the stored spans of its traces, and — for a resume of a recorded interrupt — the
 * recording it answers (so the answer edge shows), and the runs that answered it from the
 * workbench (its branches, live). Ended spans replace their open versions.
 */
export async function liveRunSpans(context: Pick<AppContext, 'store' | 'runs'>, run: RunSession): Promise<Span[]> {
  const stored: Span[] = [];
  // Captured copies only: a run's traces are captured, and this is read every few tens of ms.
  for (const traceId of run.traceIds) stored.push(...((await context.store.getCaptured(traceId)) ?? []));
  // A recording that went away since the resume started is simply not drawn.
  if (run.resumeOf) stored.push(...(await loadTraceSource(context, run.resumeOf).catch(() => [])));
  const starts = [...(context.runs.snapshot(run.runId)?.spanStarts ?? [])];
  for (const answerId of run.answeredBy ?? []) {
    const answer = context.runs.snapshot(answerId);
    if (!answer) continue;
    for (const traceId of answer.run.traceIds) stored.push(...((await context.store.getCaptured(traceId)) ?? []));
    starts.push(...answer.spanStarts);
  }
  return mergeSpans(starts.map(openSpanFromStart), stored);
}
