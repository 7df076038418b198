import { classifyOtelSpan, type SpanClassification } from './span-classification';
import { compareNanos, nanosToMillis, type Span } from './span';
import { replayedTraceIds, type TraceLinkKeys } from './trace-link-keys';

/** One line of a trace listing; kept in the store's index so listing never re-reads traces. */
export interface TraceSummary {
  traceId: string;
  /** The root span's genkit name (flow or `generate`), else its span name. */
  name: string;
  /** Milliseconds since the epoch of the earliest span. */
  startTime: number;
  /** Milliseconds since the epoch of the latest span end, when every span is closed. */
  endTime?: number;
  spanCount: number;
  /** Distinct model names called in the trace, in call order. */
  models: string[];
  /**
   * `interrupted` means paused, waiting for an answer: never shown as a failure. `answered`:
   * it ended interrupted and resumes in other traces answered every interrupt — known only
   * with the other traces in view (the listing sets it, see lib/graph/trace-sessions.ts).
   */
  status: 'ok' | 'error' | 'interrupted' | 'answered' | 'incomplete';
  /** The error message of a failed root, if any. */
  errorMessage?: string;
  /** `service.name` of the exporter, when it sent one. */
  serviceName?: string;
  /** Interrupt/resume keys linking this trace to others (see lib/graph/match-resumes.ts). */
  linkKeys?: TraceLinkKeys;
  /** Tool calls that failed with a real error (interrupts are not failures). */
  failedTools?: number;
  /** With `answered`: the traces whose resumes answered it. */
  answeredBy?: string[];
  /** The recorded traces this one replays (a replay or fork started by Loopscope links its calls to them). */
  replays?: string[];
  /** What the list calls it: scenario, flow or root span name (lib/graph/trace-title.ts); set for captured traces. */
  title?: string;
  /** The dialect that claims the root span (`genkit-js`), when one does. */
  runtime?: string;
}

/**
 * Summarizes the spans of one trace. Spans whose parent is missing count as roots.
 * `classifySpan` says what each span is: pass the dialects' (lib/loop/classify-span.ts) to
 * name runtimes' calls and models; by default only OpenTelemetry fields are read.
 */
export function summarizeTrace({ traceId, spans, classifySpan = classifyOtelSpan }: { traceId: string; spans: readonly Span[]; classifySpan?: (span: Span) => SpanClassification }): TraceSummary {
  const ids = new Set(spans.map((span) => span.spanId));
  const sorted = [...spans].sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  const roots = sorted.filter((span) => span.parentSpanId === undefined || !ids.has(span.parentSpanId));
  const root = roots.find((span) => span.parentSpanId === undefined) ?? roots[0];

  const models: string[] = [];
  let anyOpen = false;
  let latestEnd: string | undefined;
  for (const span of sorted) {
    const classification = classifySpan(span);
    if (classification.role === 'model' && !models.includes(classification.label)) models.push(classification.label);
    if (span.endTimeUnixNano === undefined) anyOpen = true;
    else if (latestEnd === undefined || compareNanos(span.endTimeUnixNano, latestEnd) > 0) latestEnd = span.endTimeUnixNano;
  }

  let status: TraceSummary['status'] = 'incomplete';
  let errorMessage: string | undefined;
  // The true root (no parent) ends last; until it arrives the trace is still in flight.
  if (root && root.parentSpanId === undefined && root.endTimeUnixNano !== undefined) {
    const classification = classifySpan(root);
    if (classification.outcome === 'error') {
      status = 'error';
      errorMessage = classification.errorMessage;
    } else if (classification.outcome === 'interrupted') status = 'interrupted';
    else status = 'ok';
  }

  const serviceName = root?.resource['service.name'];
  const replays = replayedTraceIds(spans);
  return {
    traceId,
    name: root ? classifySpan(root).label : 'empty trace',
    startTime: sorted.length > 0 ? nanosToMillis(sorted[0].startTimeUnixNano) : 0,
    endTime: !anyOpen && latestEnd !== undefined ? nanosToMillis(latestEnd) : undefined,
    spanCount: spans.length,
    models,
    status,
    errorMessage,
    serviceName: typeof serviceName === 'string' ? serviceName : undefined,
    ...(replays.length > 0 ? { replays } : {}),
  };
}
