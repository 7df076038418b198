import { describe, expect, it } from 'vitest';
import { decodeGenkitTraceData } from '../../../spans/genkit-trace-data';
import type { AttributeValue, Span } from '../../../spans/span';
import { buildSpan, exceptionEvent, type SpanOverrides } from '../../../spans/testing/build-span';
import { classifySpan } from '../../classify-span';
import { classifyGenkitSpan, generateFinishReason, isInterruptSpan, spanRole } from './classify-span';

function span(attributes: Record<string, AttributeValue> = {}, patch: SpanOverrides = {}): Span {
  return buildSpan({ spanId: 'b7ad6b7169203331', name: 'span-name', attributes, ...patch });
}

function exception(type: string, message: string): Span['events'][number] {
  return exceptionEvent({ type, message });
}

describe('spanRole', () => {
  it.each([
    ['a util generate', { 'genkit:type': 'util', 'genkit:name': 'generate' }, 'generate'],
    ['a generate run through the reflection API (action + subtype util)', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'util', 'genkit:name': 'generate' }, 'generate'],
    ['another util', { 'genkit:type': 'util', 'genkit:name': 'something-else' }, 'other'],
    ['a model', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'model', 'genkit:name': 'scripted/x' }, 'model'],
    ['a tool', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': 'getWeather' }, 'tool'],
    ['a flow', { 'genkit:type': 'flow', 'genkit:name': 'myFlow' }, 'flow'],
    ['a flow action', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:name': 'myFlow' }, 'flow'],
    ['an embedder action', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'embedder' }, 'other'],
    ['a span not from genkit', { 'http.method': 'GET' }, 'other'],
    ['a non-string type', { 'genkit:type': 3 }, 'other'],
  ] as const)('%s', (_what, attributes, role) => {
    expect(spanRole(span(attributes))).toBe(role);
  });

  it('recognizes a util generate by its span name when genkit:name is absent', () => {
    expect(spanRole(span({ 'genkit:type': 'util' }, { name: 'generate' }))).toBe('generate');
  });
});

describe('classifySpan', () => {
  it('labels with genkit:name, falling back to the span name', () => {
    expect(classifyGenkitSpan(span({ 'genkit:name': 'getWeather' })).label).toBe('getWeather');
    expect(classifyGenkitSpan(span({})).label).toBe('span-name');
  });

  it('an ended span without error is ok', () => {
    expect(classifyGenkitSpan(span({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool' }))).toMatchObject({ outcome: 'ok', restarted: false });
  });

  it('an open span is running, even if it already carries an error', () => {
    expect(classifyGenkitSpan(span({}, { endTimeUnixNano: undefined, status: { code: 2, message: 'x' } })).outcome).toBe('running');
  });

  it('status 2 is an error with the status message', () => {
    const result = classifyGenkitSpan(span({}, { status: { code: 2, message: 'boom' }, events: [exception('Error', 'from the event')] }));
    expect(result).toMatchObject({ outcome: 'error', errorMessage: 'boom', exceptionType: 'Error' });
  });

  it('falls back to the exception message, then its type, then a fixed text', () => {
    expect(classifyGenkitSpan(span({}, { status: { code: 2 }, events: [exception('TypeError', 'x is undefined')] })).errorMessage).toBe('x is undefined');
    expect(classifyGenkitSpan(span({}, { status: { code: 2 }, events: [exception('TypeError', '')] })).errorMessage).toBe('TypeError');
    expect(classifyGenkitSpan(span({}, { status: { code: 2 } })).errorMessage).toBe('failed without a message');
  });

  it('genkit:state error alone is an error', () => {
    expect(classifyGenkitSpan(span({ 'genkit:state': 'error' })).outcome).toBe('error');
  });

  it('an interrupt is interrupted, not an error, despite status 2 (genkit #4636)', () => {
    const byMetadata = classifyGenkitSpan(span({ 'genkit:metadata:interrupt': '{"kind":"question"}', 'genkit:state': 'error' }, { status: { code: 2, message: 'INTERRUPTED' } }));
    expect(byMetadata).toMatchObject({ outcome: 'interrupted', errorMessage: undefined });
    const byEvent = classifyGenkitSpan(span({}, { status: { code: 2 }, events: [exception('ToolInterruptError', 'INTERRUPTED')] }));
    expect(byEvent).toMatchObject({ outcome: 'interrupted', errorMessage: undefined, exceptionType: 'ToolInterruptError' });
  });

  it('isInterruptSpan needs the interrupt metadata or a ToolInterruptError event', () => {
    expect(isInterruptSpan(span({ 'genkit:metadata:interrupt': 'true' }))).toBe(true);
    expect(isInterruptSpan(span({}, { events: [exception('ToolInterruptError', '')] }))).toBe(true);
    expect(isInterruptSpan(span({}, { events: [exception('Error', 'ToolInterruptError')] }))).toBe(false);
    expect(isInterruptSpan(span({}, { events: [{ ...exception('ToolInterruptError', ''), name: 'log' }] }))).toBe(false);
  });

  it('a generate whose output says finishReason interrupted is interrupted', () => {
    const attributes = { 'genkit:type': 'util', 'genkit:name': 'generate', 'genkit:output': JSON.stringify({ finishReason: 'interrupted', message: {} }) };
    expect(classifyGenkitSpan(span(attributes)).outcome).toBe('interrupted');
  });

  it('a model or tool output with finishReason interrupted does not make it interrupted', () => {
    const output = JSON.stringify({ finishReason: 'interrupted' });
    expect(classifyGenkitSpan(span({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'model', 'genkit:output': output })).outcome).toBe('ok');
  });

  it('restarted is true only for tools with genkit:metadata:resumed', () => {
    expect(classifyGenkitSpan(span({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:metadata:resumed': 'true' })).restarted).toBe(true);
    expect(classifyGenkitSpan(span({ 'genkit:type': 'util', 'genkit:name': 'generate', 'genkit:metadata:resumed': 'true' })).restarted).toBe(false);
  });
});

describe('generateFinishReason', () => {
  it('reads the finish reason of a JSON output, tolerating bad data', () => {
    expect(generateFinishReason(span({ 'genkit:output': '{"finishReason":"stop"}' }))).toBe('stop');
    expect(generateFinishReason(span({ 'genkit:output': '{"finishReason":' }))).toBeUndefined();
    expect(generateFinishReason(span({ 'genkit:output': '{"finishReason":7}' }))).toBeUndefined();
    expect(generateFinishReason(span({ 'genkit:output': 'null' }))).toBeUndefined();
    expect(generateFinishReason(span({}))).toBeUndefined();
    // Another exporter may have stored the output decoded.
    expect(generateFinishReason(span({ 'genkit:output': { finishReason: 'length' } }))).toBe('length');
  });
});

describe('spans read from a Genkit Dev UI TraceData file', () => {
  it('classify like the same spans exported over OTLP: the tool paused, the generate interrupted', () => {
    const traceId = '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d';
    const root = { spanId: '1a2b3c4d5e6f7081', traceId, startTime: 1718000000100, endTime: 1718000000900, displayName: 'generate' };
    const [generate, tool] = decodeGenkitTraceData({
      traceId,
      spans: {
        [root.spanId]: {
          ...root,
          attributes: { 'genkit:type': 'util', 'genkit:name': 'generate', 'genkit:output': '{"finishReason":"interrupted"}', 'genkit:state': 'success' },
        },
        '3c4d5e6f70819203': {
          spanId: '3c4d5e6f70819203',
          traceId,
          parentSpanId: root.spanId,
          startTime: 1718000000500,
          endTime: 1718000000600,
          displayName: 'askUser',
          attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': 'askUser', 'genkit:state': 'error' },
          status: { code: 2, message: 'INTERRUPTED' },
          timeEvents: { timeEvent: [{ time: 1718000000599, annotation: { attributes: { 'exception.type': 'ToolInterruptError' }, description: 'exception' } }] },
        },
      },
    });
    expect(classifySpan(tool)).toMatchObject({ role: 'tool', outcome: 'interrupted' });
    expect(classifySpan(generate)).toMatchObject({ role: 'generate', outcome: 'interrupted' });
  });
});
