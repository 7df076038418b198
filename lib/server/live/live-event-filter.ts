import type { LiveEvent } from './event-bus';
import type { RunRegistry } from '../services/run-registry';

/**
 * Which live events one page wants: everything about its run (or its traces), plus the
 * small global ones (runner state, the trace list changed). Spans only go to pages that
 * asked for their run or trace, a run's graph only to the pages of that run.
 */
export function liveEventFilter(runs: RunRegistry, filter: { runId?: string; traceIds: string[]; all?: boolean }) {
  const wantsTrace = (traceId: string) =>
    filter.traceIds.includes(traceId) || (filter.runId !== undefined && (runs.get(filter.runId)?.traceIds.includes(traceId) ?? false));
  return (event: LiveEvent): boolean => {
    if (filter.all) return true;
    switch (event.type) {
      case 'runner':
      case 'traces-changed':
        return true;
      case 'run':
        // Without a run filter (the home page), every run's status is of interest; it is small.
        return filter.runId === undefined || event.run.runId === filter.runId;
      case 'graph':
        // Graph JSON can be large: only the pages of its run get it.
        return event.runId === filter.runId;
      case 'span-start':
        return event.span.runId === filter.runId || wantsTrace(event.span.traceId);
      case 'spans':
        return wantsTrace(event.traceId);
    }
  };
}
