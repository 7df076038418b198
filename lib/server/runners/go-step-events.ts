import type { EventBus } from '../live/event-bus';
import type { GoRunnerServiceOptions } from '../../runtimes/genkit-go/run/go-runner-service';
import type { RunRegistry } from '../services/run-registry';

/**
 * Where a stepped Go run's pauses and span starts go: the run registry (the run's pauses, its
 * traces as they start, the span starts a late page replays) and the bus (live graphs, pages),
 * as the node runners' are (app-context.ts). The Go runner names a trace by its first span start.
 */
export function goStepEvents({ runs, bus }: { runs: RunRegistry; bus?: Pick<EventBus, 'publish'> }): Pick<GoRunnerServiceOptions, 'onPause' | 'onPauseEnded' | 'onSpanStart'> {
  return {
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onSpanStart: (span) => {
      runs.addTrace(span.runId, span.traceId);
      runs.recordSpanStart(span);
      bus?.publish({ type: 'span-start', span });
    },
  };
}
