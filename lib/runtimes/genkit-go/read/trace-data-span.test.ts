import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGenkitTraceData } from '../../../spans/genkit-trace-data';
import type { Span } from '../../../spans/span';
import { genkitTraceDataWriterOf } from '../../genkit-reflection/trace-data-writer';
import { dialectOf } from '../../index';
import { otlpStatusCodeOfGo } from './trace-data-span';

/**
 * The TraceData posts genkit Go 1.12 and Python 0.12 sent to their telemetry server (recorded in
 * `__fixtures__/attach-*.json` by scripts/fixtures/attach-fixtures.ts), read by Loopscope's TraceData
 * reader with the door's writerOf: the writer is told from the span's shape, and Go's OTel-Go status codes are OTLP's.
 */
type Post = { path: string; body: unknown };
const fixture = (runtime: 'go' | 'python', name: string) => JSON.parse(readFileSync(path.join(process.cwd(), 'lib', 'runtimes', `genkit-${runtime}`, '__fixtures__', `${name}.json`), 'utf8'));
const spansOf = (posts: Post[]): Span[] => posts.filter((post) => post.path === '/api/traces').flatMap((post) => decodeGenkitTraceData(post.body, { writerOf: genkitTraceDataWriterOf }));

describe('genkit Go TraceData', () => {
  it('translates OTel-Go codes: Error 1 → 2, Ok 2 → 1, Unset 0', () => {
    expect([0, 1, 2].map((code) => otlpStatusCodeOfGo(code as 0 | 1 | 2))).toEqual([0, 2, 1]);
  });

  it('the interrupted bookHotel (Go code 1) reads as an error span of a Go program, claimed by the genkit Go dialect', () => {
    const [span] = spansOf(fixture('go', 'attach-interrupt-resume').adHocInterrupt.telemetry);
    expect(span.attributes['genkit:state']).toBe('error');
    expect(span.status.code).toBe(2);
    expect(span.status.message).toContain('tool execution interrupted');
    expect(span.resource['telemetry.sdk.language']).toBe('go');
    expect(dialectOf(span)?.id).toBe('genkit-go');
  });

  it('a Go planTrip run: 10 spans, all OK (code 0), all Go', () => {
    const spans = spansOf(fixture('go', 'attach-flow-run').telemetry);
    expect(spans).toHaveLength(10);
    expect(spans.every((span) => span.status.code === 0 && span.resource['telemetry.sdk.language'] === 'go')).toBe(true);
    expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set(['genkit-go']));
  });

  it('genkit Python spans are told as Python (codes kept), and genkit JS TraceData (links: []) keeps an empty resource', () => {
    const python = spansOf(fixture('python', 'attach-flow-run').telemetry);
    expect(python).toHaveLength(16);
    expect(python.every((span) => span.resource['telemetry.sdk.language'] === 'python' && span.status.code === 0)).toBe(true);
    expect(dialectOf(python[0])?.id).toBe('genkit-js');
    const [js] = decodeGenkitTraceData({
      traceId: '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d',
      spans: {
        '1a2b3c4d5e6f7081': { spanId: '1a2b3c4d5e6f7081', traceId: '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d', startTime: 1, endTime: 2, attributes: { 'genkit:type': 'action' }, displayName: 'x', links: [], sameProcessAsParentSpan: { value: true }, status: { code: 1 }, timeEvents: { timeEvent: [] } },
      },
    }, { writerOf: genkitTraceDataWriterOf });
    expect({ ...js.resource }).toEqual({});
    expect(js.status.code).toBe(1);
  });
});
