/**
 * genkit Python's TraceData, told apart by its shape (TraceData has no resource): genkit 0.12's
 * exporter writes neither `links` nor `sameProcessAsParentSpan`, which genkit JS 1.42 always
 * writes and genkit Go always writes the second of (../genkit-go/trace-data-span.ts; recorded in
 * `__fixtures__/attach-*.json`). Its status codes are OTel Python's, OTLP's (0 Unset, 1 Ok, 2
 * Error): nothing to translate. Applied by ../genkit-reflection/trace-data-writer.ts.
 */
import type { TraceDataSpanShape } from '../../genkit-go/read/trace-data-span';

/** True when genkit Python wrote this TraceData span. */
export function writtenByGenkitPython(span: TraceDataSpanShape): boolean {
  return span.sameProcessAsParentSpan === undefined && span.links === undefined;
}
