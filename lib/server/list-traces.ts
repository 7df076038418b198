import type { TraceListRow } from '../contract/trace-list';
import { linkTraces } from '../graph/trace-sessions';
import type { AppContext } from './app-context';

/**
 * The captured traces, newest first, each with its status as the other traces show it (an
 * interrupt answered by a later resume is `answered`, with the answering traces named) and,
 * for the later traces of a session, the first one they nest under. The link keys stay on the
 * server: the page gets the words it shows.
 */
export async function listTraces(context: Pick<AppContext, 'store'>): Promise<TraceListRow[]> {
  const summaries = await context.store.list();
  const links = linkTraces(summaries);
  const startOf = new Map(summaries.map((summary) => [summary.traceId, summary.startTime]));
  const groupOf = new Map<string, string>();
  for (const session of links.sessions()) {
    if (session.length < 2) continue;
    // The session's first trace (the run it came from) heads it; ties keep the list's order.
    const first = session.reduce((earliest, traceId) => ((startOf.get(traceId) as number) < (startOf.get(earliest) as number) ? traceId : earliest), session[session.length - 1]);
    for (const traceId of session) if (traceId !== first) groupOf.set(traceId, first);
  }
  // A replay or fork nests under the run it replays (its calls link to the recording), and so
  // does everything nested under it. A recording that is not listed (a saved file) leaves it alone.
  const byId = new Map(summaries.map((summary) => [summary.traceId, summary]));
  const finalHead = (traceId: string, seen: Set<string>): string => {
    const head = groupOf.get(traceId) ?? traceId;
    if (seen.has(head)) return head;
    seen.add(head);
    const replayed = (byId.get(head)?.replays ?? []).find((id) => id !== head && byId.has(id));
    return replayed ? finalHead(replayed, seen) : head;
  };
  const heads = new Map(summaries.map((summary) => [summary.traceId, finalHead(summary.traceId, new Set())]));
  for (const [traceId, head] of heads) if (head !== traceId) groupOf.set(traceId, head);
  return summaries.map((summary) => {
    const { linkKeys: _linkKeys, ...rest } = summary;
    const { status, answeredBy } = links.statusOf(summary);
    const group = groupOf.get(summary.traceId);
    return { ...rest, title: summary.title ?? summary.name, status, ...(answeredBy ? { answeredBy } : {}), ...(group ? { groupOf: group } : {}) };
  });
}
