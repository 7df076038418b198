import type { RunGraph } from '@/lib/graph/run-graph';

/** What a page draws before the server's first graph arrives: nothing yet. */
export const EMPTY_GRAPH: RunGraph = {
  summary: { traces: 0, generates: 0, modelCalls: 0, toolCalls: 0, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: null },
  generates: [],
  nodes: [],
  edges: [],
};
