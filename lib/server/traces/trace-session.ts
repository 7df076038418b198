import { traceIdFrom } from '../../contract/ids';
import type { SessionGraphResponse, SessionResponse } from '../../contract/session';
import { LoopscopeError } from '../../errors';
import { buildRunGraph } from '../../graph/build-run-graph';
import type { RunGraph } from '../../graph/run-graph';
import { classifySpan } from '../../runtimes/classify-span';
import { linkTraces } from '../../graph/trace-sessions';
import type { Span } from '../../spans/span';
import { boundText } from '../../spans/bounded-text';
import { summarizeTrace } from '../../spans/summarize-trace';
import type { AppContext } from '../app-context-ports';

/**
 * A captured trace's session — it, the interrupts it resumed, the resumes that answered it —
 * and which resume answers which interrupt, decided with every captured trace in view (so a
 * guessed answer is a guess even when its alternatives are in other sessions).
 * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
 */
export async function traceSession(context: Pick<AppContext, 'store'>, traceId: string): Promise<SessionResponse> {
  const id = traceIdFrom(traceId);
  const links = linkTraces((await context.store.list()).reverse());
  // A trace the index does not know (one only a saved file holds) is a session of its own.
  const linked = links.sessionOf(id);
  const traceIds = linked.length > 0 ? linked : [id];
  return { traceIds, matches: links.matchesOf(traceIds) };
}

/**
 * The session's Graph JSON, built here with the session's matches: what a trace page draws
 * (it loads no spans to draw it).
 * @throws LoopscopeError INVALID_ARGUMENT for a malformed id, NOT_FOUND when a trace of the session is in no store.
 */
export async function traceSessionGraph(context: Pick<AppContext, 'store'>, traceId: string): Promise<SessionGraphResponse<RunGraph>> {
  const { traceIds, matches } = await traceSession(context, traceId);
  const spans: Span[] = [];
  let own: Span[] = [];
  for (const id of traceIds) {
    const trace = await context.store.get(id);
    if (!trace) throw new LoopscopeError('NOT_FOUND', `No trace ${id}.`);
    if (id === traceId) own = trace;
    spans.push(...trace);
  }
  const { name, status } = summarizeTrace({ traceId, spans: own, classifySpan });
  // The page's title: bounded as in the lists (the whole name is in the span's detail).
  return { traceIds, spanCount: spans.length, trace: { traceId, name: boundText(name), status }, graph: buildRunGraph(spans, { matches }) };
}
