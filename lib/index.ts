/**
 * Loopscope's library entry points (docs/architecture.md, "Contracts"): the CLI and the routes are
 * thin shells over these.
 */
export { loadTraceFile, parseTraceText } from './store/load-trace-file';
export type { Span } from './spans/span';
export { summarizeTrace, type TraceSummary } from './spans/summarize-trace';
export { buildRunGraph } from './graph/build-run-graph';
export type { GenerateCall, GraphEdge, GraphNode, GraphSummary, RunGraph } from './graph/run-graph';
