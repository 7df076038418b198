import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import { OtlpExportRequestSchema, spansOfExportRequest } from './otlp-json';

const FIXTURES = path.join(process.cwd(), 'lib', 'graph', '__fixtures__');

describe('decodeCanonicalOtlpJson (the fast path)', () => {
  it('gives exactly what the tolerant schema path gives, on every real-genkit fixture', () => {
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.otlp.json'))) {
      const body = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
      const fast = decodeCanonicalOtlpJson(body);
      expect(fast, file).toBeDefined();
      expect(fast).toEqual(spansOfExportRequest(OtlpExportRequestSchema.parse(body)));
    }
  });

  it('hands anything non-canonical to the tolerant path instead of guessing', () => {
    const span = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'x', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const body = (patch: object) => ({ resourceSpans: [{ scopeSpans: [{ scope: { name: 's' }, spans: [{ ...span, ...patch }] }] }] });
    expect(decodeCanonicalOtlpJson(body({}))).toHaveLength(1);
    expect(decodeCanonicalOtlpJson(body({ traceId: 'qqqqqqqqqqqqqqqqqqqqqq==' }))).toBeUndefined(); // base64 id
    expect(decodeCanonicalOtlpJson(body({ startTimeUnixNano: 1 }))).toBeUndefined(); // numeric time
    expect(decodeCanonicalOtlpJson(body({ kind: 'SPAN_KIND_INTERNAL' }))).toBeUndefined(); // enum name
    expect(decodeCanonicalOtlpJson(body({ traceId: '0'.repeat(32) }))).toBeUndefined(); // invalid id: the schema path explains it
    expect(decodeCanonicalOtlpJson({ resourceSpans: 5 })).toBeUndefined();
  });
});
