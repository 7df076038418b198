import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import { OtlpExportRequestSchema, spansOfExportRequest } from './otlp-json';
import { valueNestingDepth } from './parse-json-limited';
import { deepArrayValueText, deepKvlistValueText, otlpBodyText } from './testing/deep-json';

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

  it('keeps only what it bounds: an attribute nested past 24 AnyValues goes the tolerant way, which is walked for the limit first', () => {
    const decoded = (levels: number) => decodeCanonicalOtlpJson(JSON.parse(otlpBodyText({ valueText: deepKvlistValueText(levels) })));
    const kept = decoded(24);
    expect(kept).toHaveLength(1);
    expect(valueNestingDepth(kept![0].attributes)).toBe(25);
    expect(decoded(25)).toBeUndefined();
    // Its events' and links' attributes are bounded alike.
    const eventBody = JSON.parse(otlpBodyText({ span: { events: [{ name: 'e', timeUnixNano: '1', attributes: [{ key: 'deep', value: JSON.parse(deepArrayValueText(25)) }] }] } }));
    expect(decodeCanonicalOtlpJson(eventBody)).toBeUndefined();
  });

  it('checks ids as the tolerant path does, the trace id once for a run of spans of one trace', () => {
    const span = (patch: object) => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'x', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2', ...patch });
    const body = (...spans: object[]) => ({ resourceSpans: [{ scopeSpans: [{ scope: { name: 's' }, spans }] }] });
    expect(decodeCanonicalOtlpJson(body(span({}), span({ spanId: 'c'.repeat(16) })))).toHaveLength(2);
    // A bad trace id after a good one of another trace is still refused.
    expect(decodeCanonicalOtlpJson(body(span({}), span({ traceId: 'A'.repeat(32) })))).toBeUndefined();
    expect(decodeCanonicalOtlpJson(body(span({ spanId: '0'.repeat(16) })))).toBeUndefined();
    // An all-zero parent of any length is no parent; a malformed one is not canonical.
    for (const parentSpanId of ['', '0', '0'.repeat(16), '0'.repeat(32)]) expect(decodeCanonicalOtlpJson(body(span({ parentSpanId })))![0].parentSpanId).toBeUndefined();
    expect(decodeCanonicalOtlpJson(body(span({ parentSpanId: '0x' })))).toBeUndefined();
  });

  it('gives spans without events or links one shared empty list each, frozen: no reader can add to the list of another span', () => {
    const span = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'x', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const spans = decodeCanonicalOtlpJson({ resourceSpans: [{ scopeSpans: [{ scope: { name: 's' }, spans: [span, { ...span, spanId: 'c'.repeat(16) }] }] }] })!;
    expect(spans[0].events).toEqual([]);
    expect(spans[0].events).toBe(spans[1].events);
    expect(Object.isFrozen(spans[0].links)).toBe(true);
    expect(() => spans[0].events.push({ name: 'e', timeUnixNano: '1', attributes: {} })).toThrow(TypeError);
  });
});
