import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../errors';
import { decodeGenkitTraceData, isGenkitTraceData } from './genkit-trace-data';
import { classifyOtelSpan } from './span-classification';

const TRACE_ID = '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d';
const ROOT_ID = '1a2b3c4d5e6f7081';
const MODEL_ID = '2b3c4d5e6f708192';
const TOOL_ID = '3c4d5e6f708192a3';

const library = { name: 'genkit-tracer', version: 'v1' };

/** Shaped like what genkit 1.42's TraceServerExporter writes to `.genkit/traces/<traceId>`. */
function sampleTraceData() {
  return {
    traceId: TRACE_ID,
    displayName: 'generate',
    startTime: 1718000000100.25,
    endTime: 1718000000900.5,
    spans: {
      [ROOT_ID]: {
        spanId: ROOT_ID,
        traceId: TRACE_ID,
        startTime: 1718000000100.25,
        endTime: 1718000000900.5,
        attributes: {
          'genkit:type': 'util',
          'genkit:name': 'generate',
          'genkit:isRoot': true,
          'genkit:path': '/{generate,t:util}',
          'genkit:input': '{"messages":[{"role":"user","content":[{"text":"book a table"}]}]}',
          'genkit:output': '{"finishReason":"interrupted"}',
          'genkit:state': 'success',
        },
        displayName: 'generate',
        links: [],
        instrumentationLibrary: library,
        spanKind: 'INTERNAL',
        sameProcessAsParentSpan: { value: true },
        status: { code: 0 },
        timeEvents: { timeEvent: [] },
      },
      [MODEL_ID]: {
        spanId: MODEL_ID,
        traceId: TRACE_ID,
        parentSpanId: ROOT_ID,
        startTime: 1718000000200,
        endTime: 1718000000400,
        attributes: {
          'genkit:type': 'action',
          'genkit:metadata:subtype': 'model',
          'genkit:name': 'scripted/booking',
          'genkit:path': '/{generate,t:util}/{scripted/booking,t:action,s:model}',
          'genkit:state': 'success',
        },
        displayName: 'scripted/booking',
        links: [{ context: { traceId: TRACE_ID, spanId: ROOT_ID, traceFlags: 1 }, attributes: { why: 'test' } }, { attributes: {} }],
        instrumentationLibrary: library,
        spanKind: 'INTERNAL',
        sameProcessAsParentSpan: { value: true },
        status: { code: 0 },
        timeEvents: { timeEvent: [] },
      },
      [TOOL_ID]: {
        spanId: TOOL_ID,
        traceId: TRACE_ID,
        parentSpanId: ROOT_ID,
        startTime: 1718000000500,
        endTime: 1718000000600,
        attributes: {
          'genkit:type': 'action',
          'genkit:metadata:subtype': 'tool',
          'genkit:name': 'askUser',
          'genkit:input': '{"question":"Which day?"}',
          'genkit:state': 'error',
        },
        displayName: 'askUser',
        links: [],
        instrumentationLibrary: library,
        spanKind: 'INTERNAL',
        sameProcessAsParentSpan: { value: true },
        status: { code: 2, message: 'INTERRUPTED' },
        timeEvents: {
          timeEvent: [
            {
              time: 1718000000599.125,
              annotation: {
                attributes: { 'exception.type': 'ToolInterruptError', 'exception.message': 'INTERRUPTED', 'exception.stacktrace': 'at askUser' },
                description: 'exception',
              },
            },
          ],
        },
      },
    },
  };
}

describe('decodeGenkitTraceData', () => {
  it('normalizes TraceData spans: ms → ns strings, event names, scope, kind, status, links', () => {
    const spans = decodeGenkitTraceData(sampleTraceData());
    expect(spans).toHaveLength(3);
    const [root, model, tool] = spans;
    expect(root).toMatchObject({
      traceId: TRACE_ID,
      spanId: ROOT_ID,
      name: 'generate',
      kind: 1,
      startTimeUnixNano: '1718000000100250000',
      endTimeUnixNano: '1718000000900500000',
      scope: { name: 'genkit-tracer', version: 'v1' },
      status: { code: 0 },
    });
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes['genkit:isRoot']).toBe(true);
    expect({ ...root.resource }).toEqual({});
    expect(model.parentSpanId).toBe(ROOT_ID);
    expect(model.links).toEqual([{ traceId: TRACE_ID, spanId: ROOT_ID, attributes: expect.objectContaining({ why: 'test' }) }]);
    expect(tool.status).toEqual({ code: 2, message: 'INTERRUPTED' });
    expect(tool.events).toHaveLength(1);
    expect(tool.events[0].name).toBe('exception');
    expect(tool.events[0].timeUnixNano).toBe('1718000000599125000');
    expect(tool.events[0].attributes['exception.type']).toBe('ToolInterruptError');
    // The normalized spans carry what the genkit dialect classifies by (lib/runtimes/genkit-js/read/classify-span.test.ts).
    expect(tool.attributes['genkit:type']).toBe('action');
  });

  it('reads endTime 0 (a span exported at start) as an open span', () => {
    const data = sampleTraceData();
    data.spans[TOOL_ID].endTime = 0;
    const tool = decodeGenkitTraceData(data)[2];
    expect(tool.endTimeUnixNano).toBeUndefined();
    // An open span: what every classifier reads as running.
    expect(classifyOtelSpan(tool).outcome).toBe('running');
  });

  it('tolerates missing optional fields and unknown extras', () => {
    const spans = decodeGenkitTraceData({
      traceId: TRACE_ID,
      spans: { [ROOT_ID]: { spanId: ROOT_ID, traceId: TRACE_ID, startTime: 1, endTime: 2, displayName: 'x', spanKind: 'CLIENT', truncated: true } },
      extra: 'ignored',
    });
    expect(spans[0]).toMatchObject({ kind: 3, scope: { name: '' }, events: [], links: [], status: { code: 0 } });
  });

  it('fails with the path of the first problem', () => {
    const data = sampleTraceData() as { spans: Record<string, Record<string, unknown>> };
    data.spans[MODEL_ID].startTime = 'yesterday';
    try {
      decodeGenkitTraceData(data);
      expect.unreachable();
    } catch (error) {
      expect(LoopscopeError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
      expect((error as Error).message).toBe(`Invalid Genkit TraceData at spans["${MODEL_ID}"].startTime: expected number, received string.`);
    }
    expect(() => decodeGenkitTraceData({ ...sampleTraceData(), traceId: 'nope' })).toThrow(
      'Invalid Genkit TraceData at traceId: expected 32 hex characters (or base64 of 16 bytes), got "nope".',
    );
    const badKind = sampleTraceData() as { spans: Record<string, Record<string, unknown>> };
    badKind.spans[ROOT_ID].spanKind = 'SIDEWAYS';
    expect(() => decodeGenkitTraceData(badKind)).toThrow('spanKind: expected a span kind such as INTERNAL, got "SIDEWAYS"');
  });
});

describe('isGenkitTraceData', () => {
  it('recognizes the shape, not OTLP or arrays', () => {
    expect(isGenkitTraceData(sampleTraceData())).toBe(true);
    expect(isGenkitTraceData({ resourceSpans: [] })).toBe(false);
    expect(isGenkitTraceData({ traceId: TRACE_ID, spans: [] })).toBe(false);
    expect(isGenkitTraceData([sampleTraceData()])).toBe(false);
    expect(isGenkitTraceData(null)).toBe(false);
  });
});
