import { linkTraces } from '../graph/trace-sessions';
import type { TraceSummary } from '../trace/summarize-trace';
import type { AppContext } from './app-context';

/**
 * The captured traces, newest first, each with its status as the other traces show it (an
 * interrupt answered by a later resume is `answered`, with the answering traces named). The
 * link keys stay on the server: the page gets the words it shows.
 */
export async function listTraces(context: Pick<AppContext, 'store'>): Promise<TraceSummary[]> {
  const summaries = await context.store.list();
  const links = linkTraces(summaries);
  return summaries.map((summary) => {
    const { linkKeys: _linkKeys, ...rest } = summary;
    const { status, answeredBy } = links.statusOf(summary);
    return { ...rest, status, ...(answeredBy ? { answeredBy } : {}) };
  });
}
