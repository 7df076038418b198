/**
 * Large trace files for the graph-build benchmarks: recorded traces copied with fresh trace and
 * span ids, round robin, until a span count is reached — so a file of ~10,000 spans holds only
 * shapes real runs made.
 */
import { writeFileSync } from 'node:fs';
import { encodeOtlpJson } from '../../lib/spans/otlp-json';
import type { Span } from '../../lib/spans/span';

function randomHex(bytes: number): string {
  let text = '';
  for (let index = 0; index < bytes; index++) text += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return text;
}

/** Writes `sources` copied round robin with fresh ids until `targetSpans` is reached, as OTLP JSON to `file`. */
export function writeCopiedTraces(sources: Span[][], to: { targetSpans: number; file: string }): { spans: number; bytes: number } {
  const { targetSpans, file } = to;
  if (sources.length === 0 || sources.every((source) => source.length === 0)) throw new Error('no spans to copy: every source trace is empty');
  const spans: Span[] = [];
  for (let copy = 0; spans.length < targetSpans; copy++) {
    const source = sources[copy % sources.length];
    const traceIds = new Map<string, string>();
    const spanIds = new Map<string, string>();
    const mapTrace = (id: string) => traceIds.get(id) ?? (traceIds.set(id, randomHex(16)), traceIds.get(id)!);
    const mapSpan = (id: string) => spanIds.get(id) ?? (spanIds.set(id, randomHex(8)), spanIds.get(id)!);
    for (const span of source) {
      spans.push({ ...span, traceId: mapTrace(span.traceId), spanId: mapSpan(span.spanId), parentSpanId: span.parentSpanId ? mapSpan(span.parentSpanId) : undefined });
    }
  }
  const text = JSON.stringify(encodeOtlpJson(spans));
  writeFileSync(file, text);
  return { spans: spans.length, bytes: text.length };
}
