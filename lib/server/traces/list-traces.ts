import type { TraceListQuery, TraceListRow } from '../../contract/trace-list';
import { linkTraces } from '../../graph/trace-sessions';
import type { TraceSummary } from '../../spans/summarize-trace';
import { searchWords } from '../../spans/trace-index-rows';
import type { TraceStore } from '../../store/trace-store';
import type { AppContext } from '../app-context-ports';

/** What the links between traces decide for one linked trace: its status as the others show it, and its session head. */
interface LinkedFacts {
  status: TraceSummary['status'];
  answeredBy?: string[];
  groupOf?: string;
}

/**
 * Statuses and session heads of the traces that take part in linking (interrupts, resumes,
 * replays), decided with all of them in view. Only those can be `answered` or nested: every
 * other trace keeps its own status and stands alone, so a list never re-reads them to link.
 */
async function decideLinks(store: Pick<TraceStore, 'linkedSummaries' | 'hasCaptured'>): Promise<Map<string, LinkedFacts>> {
  const summaries = await store.linkedSummaries();
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
  // does everything nested under it. A recording that is not captured (a saved file) leaves it alone.
  const byId = new Map(summaries.map((summary) => [summary.traceId, summary]));
  const captured = new Set<string>();
  for (const summary of summaries) for (const id of summary.replays ?? []) if (byId.has(id) || (await store.hasCaptured(id))) captured.add(id);
  const finalHead = (traceId: string, seen: Set<string>): string => {
    const head = groupOf.get(traceId) ?? traceId;
    if (seen.has(head)) return head;
    seen.add(head);
    const replayed = (byId.get(head)?.replays ?? []).find((id) => id !== head && captured.has(id));
    return replayed ? finalHead(replayed, seen) : head;
  };
  const facts = new Map<string, LinkedFacts>();
  for (const summary of summaries) {
    const head = finalHead(summary.traceId, new Set());
    facts.set(summary.traceId, { ...links.statusOf(summary), ...(head !== summary.traceId ? { groupOf: head } : {}) });
  }
  return facts;
}

/** The decided links, kept until the store changes (its generation): a list of 10,000 traces links only when something was stored or deleted. */
const decided = new WeakMap<object, { generation: string; facts: Promise<Map<string, LinkedFacts>> }>();

async function linkedFacts(store: Pick<TraceStore, 'linkedSummaries' | 'hasCaptured' | 'generation'>): Promise<Map<string, LinkedFacts>> {
  const generation = await store.generation();
  const cached = decided.get(store);
  if (cached?.generation === generation) return cached.facts;
  const facts = decideLinks(store);
  decided.set(store, { generation, facts });
  facts.catch(() => decided.delete(store));
  return facts;
}

function listRow(summary: TraceSummary, facts: LinkedFacts | undefined): TraceListRow {
  const { linkKeys: _linkKeys, ...rest } = summary;
  const { status, answeredBy, groupOf } = facts ?? { status: summary.status };
  return { ...rest, title: summary.title ?? summary.name, status, ...(answeredBy ? { answeredBy } : {}), ...(groupOf ? { groupOf } : {}) };
}

/**
 * The captured traces, newest first, each with its status as the other traces show it (an
 * interrupt answered by a later resume is `answered`, with the answering traces named) and,
 * for the later traces of a session, the first one they nest under. The link keys stay on the
 * server: the page gets the words it shows.
 */
export async function listTraces(context: Pick<AppContext, 'store'>): Promise<TraceListRow[]> {
  const facts = await linkedFacts(context.store);
  return (await context.store.list()).map((summary) => listRow(summary, facts.get(summary.traceId)));
}

/** Default and largest page of `queryTraces`. */
export const TRACE_PAGE = { default: 100, max: 1_000 } as const;

/**
 * One page of captured traces that pass a filter, newest first, from the store's indexes
 * (search words, status, service, runtime, start time), with `next` for the page after it.
 * Rows read as `listTraces` would show them; statuses decided by links are filtered as shown.
 */
export async function queryTraces(context: Pick<AppContext, 'store'>, query: TraceListQuery): Promise<{ traces: TraceListRow[]; next?: string }> {
  const facts = await linkedFacts(context.store);
  const limit = Math.min(query.limit ?? TRACE_PAGE.default, TRACE_PAGE.max);
  const linkedTraceIds = query.status === undefined ? [] : [...facts].filter(([, linked]) => linked.status === query.status).map(([traceId]) => traceId);
  const summaries = await context.store.query({
    words: searchWords(query.q ?? ''),
    ...(query.status !== undefined ? { status: { stored: query.status, linkedTraceIds } } : {}),
    ...(query.service !== undefined ? { service: query.service } : {}),
    ...(query.runtime !== undefined ? { runtime: query.runtime } : {}),
    ...(query.since !== undefined ? { since: query.since } : {}),
    ...(query.after !== undefined ? { after: query.after } : {}),
    // One more than asked: whether there is a next page.
    limit: limit + 1,
  });
  const page = summaries.slice(0, limit);
  const last = page[page.length - 1];
  return {
    traces: page.map((summary) => listRow(summary, facts.get(summary.traceId))),
    ...(summaries.length > limit && last ? { next: `${last.startTime}:${last.traceId}` } : {}),
  };
}
