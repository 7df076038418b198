import { nanosToMillis, spanKey, type Span } from '../spans/span';
import type { GenerateCall } from './loop-model';

/** The fields of a top-level call that its root span decides, whatever the runtime: graph id, ids, the enclosing flow, start and end. */
export function callSpanFields(options: { root: Span; flowSpanId?: string }): Pick<GenerateCall, 'id' | 'traceId' | 'spanId' | 'flowSpanId' | 'startTime' | 'endTime'> {
  const { root, flowSpanId } = options;
  return {
    id: spanKey(root),
    traceId: root.traceId,
    spanId: root.spanId,
    flowSpanId,
    startTime: nanosToMillis(root.startTimeUnixNano),
    endTime: root.endTimeUnixNano !== undefined ? nanosToMillis(root.endTimeUnixNano) : undefined,
  };
}
