import { nanosToMillis, spanKey, type Span } from '../spans/span';
import type { GenerateCall } from './loop-model';

/** What a dialect reads of a top-level call beyond its root span (everything of a `GenerateCall` but the span's own fields). */
export type CallReadFields = Omit<GenerateCall, 'id' | 'traceId' | 'spanId' | 'flowSpanId' | 'startTime' | 'endTime' | 'runtime'>;

/**
 * A top-level call, whatever the runtime: the fields its root span decides (graph id, ids, the
 * enclosing flow, start and end) and those its dialect read, in one object literal with every
 * field present. Why one literal and not a spread of the span's fields into the dialect's: V8
 * gave each object built by `{...spanFields, status, …}` a hidden class of its own (2,578 of
 * 2,598 calls on the 10,000-span benchmark), and every later pass over the calls — linking,
 * notes, graph elements, the summary — then ran on megamorphic property lookups
 * (docs/performance.md, "Graph build"). Optional fields are present even when undefined, so the
 * fields set later (`runtime` by the graph builder, `runtimeState`) change no object's shape;
 * JSON leaves undefined fields out, so Graph JSON is unchanged.
 */
export function newGenerateCall(options: { root: Span; flowSpanId?: string; read: CallReadFields }): GenerateCall {
  const { root, flowSpanId, read } = options;
  return {
    id: spanKey(root),
    traceId: root.traceId,
    spanId: root.spanId,
    flowSpanId,
    startTime: nanosToMillis(root.startTimeUnixNano),
    endTime: root.endTimeUnixNano !== undefined ? nanosToMillis(root.endTimeUnixNano) : undefined,
    status: read.status,
    finishReason: read.finishReason,
    errorMessage: read.errorMessage,
    errorStatus: read.errorStatus,
    model: read.model,
    turns: read.turns,
    resumeToolCalls: read.resumeToolCalls,
    resume: read.resume,
    pendingInterrupts: read.pendingInterrupts,
    text: read.text,
    notes: read.notes,
    runtimeState: read.runtimeState,
    runtime: undefined,
  };
}
