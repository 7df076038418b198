/**
 * Which genkit runtime wrote a TraceData span, for lib/spans' TraceData reader: what arrives at
 * Loopscope's genkit telemetry door (`GENKIT_TELEMETRY_SERVER`) from a JS, Go or Python app
 * looks alike and has no resource. Go's and Python's rules live in their dialect folders.
 */
import type { TraceDataWriter, TraceDataWriterOf } from '../../spans/genkit-trace-data';
import { otlpStatusCodeOfGo, writtenByGenkitGo } from '../genkit-go/read/trace-data-span';
import { writtenByGenkitPython } from '../genkit-python/read/trace-data-span';

const GO: TraceDataWriter = { language: 'go', otlpStatusCode: otlpStatusCodeOfGo };
const PYTHON: TraceDataWriter = { language: 'python' };

/** genkit Go (language `go`, OTel-Go codes), genkit Python (`python`), else undefined: genkit JS, read as written. */
export const genkitTraceDataWriterOf: TraceDataWriterOf = (span) => {
  if (writtenByGenkitGo(span)) return GO;
  if (writtenByGenkitPython(span)) return PYTHON;
  return undefined;
};
