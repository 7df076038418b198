/**
 * genkit Go's TraceData (what `GENKIT_TELEMETRY_SERVER` receives at `/api/traces`), told apart
 * from genkit JS's and Python's by its shape, and its status codes read as OTLP's.
 *
 * TraceData carries no resource, so which runtime wrote a span is decided from the span itself.
 * genkit go v1.12 marshals `core/tracing/store.go` `SpanData`: `links` is `omitempty` (absent when
 * the span has none) and `sameProcessAsParentSpan` is always written. genkit JS 1.42's
 * `TraceServerExporter` always writes `links` (the SDK span's array, `[]` when empty) and
 * `sameProcessAsParentSpan`; genkit Python 0.12 writes neither (recorded fixtures:
 * `__fixtures__/attach-*.json` here and in ../genkit-python).
 *
 * Go copies the OTel-Go SDK's `codes.Code` into `status.code`: 0 Unset, **1 Error**, 2 Ok. OTLP,
 * OTel JS and OTel Python use 0 Unset, 1 Ok, 2 Error — so a failed Go span sent as TraceData
 * reads as OK unless its code is translated (measured: the interrupted `bookHotel`,
 * `{"code": 1, "message": "tool execution interrupted: …"}`).
 *
 * Pure; lib/runtimes/genkit-reflection/trace-data-writer.ts applies it to every TraceData span.
 */
type StatusCode = 0 | 1 | 2;

/** The fields of one TraceData span that tell its writer (the rest does not matter here). */
export interface TraceDataSpanShape {
  links?: unknown;
  sameProcessAsParentSpan?: unknown;
}

/** True when genkit Go wrote this TraceData span (see the file comment for the evidence). */
export function writtenByGenkitGo(span: TraceDataSpanShape): boolean {
  return span.sameProcessAsParentSpan !== undefined && span.links === undefined;
}

/** OTel-Go's `codes.Code` as OTLP's status code: Error 1 → 2, Ok 2 → 1, Unset stays 0. */
export function otlpStatusCodeOfGo(code: StatusCode): StatusCode {
  if (code === 1) return 2;
  if (code === 2) return 1;
  return 0;
}
