import { describe, expect, it } from 'vitest';
import { SpanViewSchema } from '../../contract/span-view';
import { buildSpan, exceptionEvent, toolAttributes } from '../../spans/testing/build-span';
import { deepArrayText } from '../../spans/testing/deep-json';
import { spanView } from './span-view';

describe('spanView', () => {
  it('reads a tool span: classified, input and output parsed, the other attributes listed apart', () => {
    const span = buildSpan({
      name: 'getWeather',
      parentSpanId: 'b7ad6b7169203331',
      attributes: { ...toolAttributes('getWeather'), 'genkit:input': '{"city":"Lisbon"}', 'genkit:output': '{"temperatureC":21}', 'genkit:path': '/generate/getWeather' },
    });
    const view = spanView(span);
    expect(SpanViewSchema.parse(view)).toEqual(view);
    expect(view).toMatchObject({
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: 'b7ad6b7169203331',
      role: 'tool',
      label: 'getWeather',
      outcome: 'ok',
      startTime: 1_700_000_000_000,
      durationMs: 10,
      input: { parsed: true, value: { city: 'Lisbon' } },
      output: { parsed: true, value: { temperatureC: 21 } },
    });
    expect(view.attributes).toEqual({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': 'getWeather', 'genkit:path': '/generate/getWeather' });
    expect(view.interruptMetadata).toBeUndefined();
  });

  it('bounds the header label as the lists do, and carries the whole: the name itself, or the cut label apart (issue 36)', () => {
    const longName = 'n'.repeat(5_000_000);
    const plain = spanView(buildSpan({ name: longName }));
    expect(plain.label).toBe(`${'n'.repeat(200)}… [5000000 characters in all]`);
    expect(plain.name).toBe(longName);
    expect(plain.wholeLabel).toBeUndefined();
    const longTool = 't'.repeat(300);
    const tool = spanView(buildSpan({ name: 'tool-span', attributes: toolAttributes(longTool) }));
    expect(tool.label).toBe(`${'t'.repeat(200)}… [300 characters in all]`);
    expect(tool.wholeLabel).toBe(longTool);
    expect(spanView(buildSpan({ name: 'getWeather', attributes: toolAttributes('getWeather') })).wholeLabel).toBeUndefined();
  });

  it('keeps a value that is not JSON as its raw text, with the reason — also one nested too deep', () => {
    const truncated = spanView(buildSpan({ attributes: { ...toolAttributes('t'), 'genkit:output': '{"cut": ' } }));
    expect(truncated.output).toMatchObject({ parsed: false, raw: '{"cut": ' });
    expect(truncated.output?.parsed === false && truncated.output.reason).toMatch(/./);
    const deep = deepArrayText(200);
    const tooDeep = spanView(buildSpan({ attributes: { ...toolAttributes('t'), 'genkit:input': deep } }));
    expect(tooDeep.input).toMatchObject({ parsed: false, raw: deep });
    expect(tooDeep.input?.parsed === false && tooDeep.input.reason).toMatch(/nested \d+ levels deep; the limit is 128/);
  });

  it('an interrupted tool is a pause with its metadata; without metadata, genkit’s `true`', () => {
    const interrupt = exceptionEvent({ type: 'ToolInterruptError', message: 'interrupted' });
    const withMetadata = spanView(buildSpan({ status: { code: 2 }, events: [interrupt], attributes: { ...toolAttributes('transferMoney'), 'genkit:metadata:interrupt': '{"reason":"approval-required"}' } }));
    expect(withMetadata).toMatchObject({ outcome: 'interrupted', interruptMetadata: { parsed: true, value: { reason: 'approval-required' } } });
    const bare = spanView(buildSpan({ status: { code: 2 }, events: [interrupt], attributes: toolAttributes('askUser') }));
    expect(bare).toMatchObject({ outcome: 'interrupted', interruptMetadata: { parsed: true, value: true } });
    expect(bare.events).toEqual([{ name: 'exception', timeUnixNano: interrupt.timeUnixNano, attributes: { 'exception.type': 'ToolInterruptError', 'exception.message': 'interrupted' } }]);
  });

  it('an open span is running, without a duration; a restarted one shows its resumed metadata', () => {
    const open = spanView(buildSpan({ endTimeUnixNano: undefined, attributes: { ...toolAttributes('t'), 'genkit:metadata:resumed': '{"approved":true}' } }));
    expect(open).toMatchObject({ outcome: 'running', resumedMetadata: { parsed: true, value: { approved: true } } });
    expect(open.durationMs).toBeUndefined();
  });

  it('an attribute named __proto__ stays data: listed as a key, nothing polluted', () => {
    const span = buildSpan({ attributes: toolAttributes('t') });
    span.attributes['__proto__'] = 'x';
    const view = spanView(span);
    expect(Object.keys(view.attributes)).toContain('__proto__');
    expect(JSON.parse(JSON.stringify(view)).attributes.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
