/**
 * Trace files as text: OTLP JSON, Genkit TraceData, arrays and JSONL of them, read into spans.
 * Browser-safe (no Node API); lib/store/load-trace-file.ts adds protobuf, gzip and the file system.
 */
import { errorMessage, LoopscopeError } from '../errors';
import { decodeGenkitTraceData, isGenkitTraceData } from './genkit-trace-data';
import { mergeSpans } from './merge-spans';
import { decodeOtlpJson } from './otlp-json';
import { decodeOtlpJsonByResource, textSource, type JsonSource } from './otlp-json-by-resource';
import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import { checkNesting, parseJsonLimited, tryParseJsonLimited, tryParseJsonUnbounded } from './parse-json-limited';
import type { Span } from './span';

const NOT_A_TRACE =
  'expected an OTLP JSON export request (an object with "resourceSpans"), Genkit TraceData (an object with "traceId" and "spans"), a JSON array of them, or JSONL with one per line';

function isOtlpExportRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'resourceSpans' in value;
}

/** Decodes one parsed document (OTLP JSON or Genkit TraceData); `where` prefixes errors ("line 3: ", "item [2]: "). */
export function decodeTraceDocument({ value, sourceName, where }: { value: unknown; sourceName: string; where: string }): Span[] {
  try {
    if (isOtlpExportRequest(value)) return decodeOtlpJson(value);
    if (isGenkitTraceData(value)) return decodeGenkitTraceData(value);
  } catch (error) {
    throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: ${where}${errorMessage(error)}`, { cause: error });
  }
  throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: ${where}not a trace: ${NOT_A_TRACE}.`);
}

function parseJsonLines(lines: string[], sourceName: string): Span[] {
  let spans: Span[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const value = parseJsonLimited(line, { what: `${sourceName}: line ${index + 1}` });
    spans = mergeSpans(spans, decodeTraceDocument({ value, sourceName, where: `line ${index + 1}: ` }));
  });
  return spans;
}

/**
 * Reads spans from the text of a trace file in any supported JSON format: an OTLP JSON
 * export request, Genkit `TraceData`, a JSON array of either, or JSONL with one of either
 * per line (blank lines skipped). A span present twice is merged by `mergeSpans`.
 *
 * @param sourceName names the input in error messages (a path or file name).
 * @throws LoopscopeError INVALID_ARGUMENT `"<sourceName>: <what is wrong>"`.
 */
export function parseTraceText(text: string, sourceName: string): Span[] {
  return readJsonTrace({ source: textSource(text), text: () => text, sourceName });
}

/**
 * `parseTraceText` of a JSON trace given as a `JsonSource` (its text, or its file's bytes:
 * lib/store/load-trace-file.ts): an export request laid out as exporters write it is read element
 * by element from the source (otlp-json-by-resource.ts); anything else is read whole from
 * `text()`, asked for only then.
 */
export function readJsonTrace(options: { source: JsonSource; text: () => string; sourceName: string }): Span[] {
  const { sourceName } = options;
  const byResource = decodeOtlpJsonByResource(options.source);
  if (byResource) return mergeSpans([], byResource);
  const content = options.text().replace(/^\uFEFF/, '');
  if (content.trim() === '') throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: the file is empty.`);

  const parsed = tryParseJsonUnbounded(content);
  // A canonical OTLP body (what exporters write) needs no walk for the nesting limit: the fast
  // decoder keeps only values it bounds itself. Anything else is walked before it is read.
  const canonical = parsed.ok && isOtlpExportRequest(parsed.value) ? decodeCanonicalOtlpJson(parsed.value) : undefined;
  if (canonical) return mergeSpans([], canonical);
  const whole = parsed.ok ? checkNesting(parsed.value) : parsed;
  if (whole.ok) {
    if (Array.isArray(whole.value)) {
      let spans: Span[] = [];
      for (const [index, item] of whole.value.entries()) spans = mergeSpans(spans, decodeTraceDocument({ value: item, sourceName, where: `item [${index}]: ` }));
      return spans;
    }
    return mergeSpans([], decodeTraceDocument({ value: whole.value, sourceName, where: '' }));
  }

  // JSONL only when the first non-blank line is a JSON document on its own; otherwise a
  // broken pretty-printed file would be misreported as "line 1 is not valid JSON".
  const lines = content.split(/\r?\n/);
  const firstLine = lines.find((line) => line.trim() !== '') ?? '';
  // A JSONL file with one line nested too deep lands here too: the line is named.
  if (lines.filter((line) => line.trim() !== '').length > 1 && tryParseJsonLimited(firstLine).ok) return parseJsonLines(lines, sourceName);
  throw new LoopscopeError('INVALID_ARGUMENT', `${sourceName}: ${whole.problem}.`, { cause: whole.cause });
}
