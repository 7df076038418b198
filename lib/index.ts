/**
 * Loopscope's library entry points (docs/architecture.md, "Contracts"): the CLI and the routes are
 * thin shells over these.
 */
export { loadTraceFile, parseTraceText } from './trace/load-trace-file';
export type { Span } from './trace/span';
export { summarizeTrace, type TraceSummary } from './trace/summarize-trace';
export { buildRunGraph } from './graph/build-run-graph';
export type { GenerateCall, GraphEdge, GraphNode, GraphSummary, RunGraph } from './graph/run-graph';
