/** Public API of lib/trace: the span model, its readers and writers, and the trace store. */
export * from './span';
export { classifyOtelSpan, type SpanClassification, type SpanOutcome, type SpanRole } from './span-classification';
export { jsonAttributeOrUndefined, parseJsonAttribute, type ParsedAttribute } from './parse-json-attribute';
export { summarizeTrace, type TraceSummary } from './summarize-trace';
export { decodeOtlpJson, encodeOtlpJson, OtlpExportRequestSchema, type OtlpExportRequest } from './otlp-json';
export { decodeGenkitTraceData, GenkitTraceDataSchema, isGenkitTraceData, type GenkitTraceData } from './genkit-trace-data';
export { loadTraceFile, parseTraceText } from './load-trace-file';
export { mergeSpans } from './merge-spans';
export { writeFileAtomic, type WriteFileAtomicOptions } from './atomic-write';
export { savedTraceFileName, TraceStore, type SavedTraceFile, type TraceStoreOptions } from './trace-store';
export { buildSpanTree, flattenSpanTree, type SpanTreeNode } from './span-tree';
export { decodeOtlpProtobuf } from './otlp-protobuf';
