import { describe, expect, it } from 'vitest';
import type { AttributeValue, Span } from '../../../spans/span';
import { summarizeTrace as summarize } from '../../../spans/summarize-trace';
import { BASE_MILLIS, buildSpan, generateAttributes, modelAttributes, spanTimes, toolAttributes } from '../../../spans/testing/build-span';
import { classifySpan } from '../../classify-span';

/** The summary of a trace of genkit spans, classified by the dialects (as the server makes it). */
const summarizeTrace = (traceId: string, spans: readonly Span[]) => summarize({ traceId, spans, classifySpan });

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const BASE = BASE_MILLIS;

/** Times in milliseconds after BASE; `end: null` leaves the span open. */
function span(
  spanId: string,
  options: { parent?: string; start?: number; end?: number | null; attributes?: Record<string, AttributeValue>; status?: Span['status']; resource?: Record<string, AttributeValue> } = {},
): Span {
  return buildSpan({
    traceId: TRACE,
    spanId,
    parentSpanId: options.parent,
    name: spanId,
    ...spanTimes(options),
    attributes: options.attributes,
    status: options.status,
    resource: options.resource ?? { 'service.name': 'my-agent' },
  });
}

const generate = generateAttributes;
const model = modelAttributes;
const tool = toolAttributes;

/** A plain tool round: generate → model-a, tool, generate → model-b, model-a. */
function plainRound(rootPatch: Parameters<typeof span>[1] = {}): Span[] {
  return [
    span('m2', { parent: 'g2', start: 40, end: 50, attributes: model('vendor/model-b') }),
    span('root', { start: 0, end: 100, attributes: generate({ finishReason: 'stop' }), ...rootPatch }),
    span('m1', { parent: 'root', start: 5, end: 15, attributes: model('vendor/model-a') }),
    span('t1', { parent: 'root', start: 20, end: 25, attributes: tool('getWeather') }),
    span('g2', { parent: 'root', start: 30, end: 90, attributes: generate({ finishReason: 'stop' }) }),
    span('m3', { parent: 'g2', start: 60, end: 70, attributes: model('vendor/model-a') }),
  ];
}

describe('summarizeTrace', () => {
  it('summarizes a finished trace: ok, name, times, span count, models in call order, service name', () => {
    const summary = summarizeTrace(TRACE, plainRound());
    expect(summary).toEqual({
      traceId: TRACE,
      name: 'generate',
      startTime: BASE,
      endTime: BASE + 100,
      spanCount: 6,
      models: ['vendor/model-a', 'vendor/model-b'],
      status: 'ok',
      errorMessage: undefined,
      serviceName: 'my-agent',
    });
  });

  it('is an error with the message when the root failed', () => {
    const summary = summarizeTrace(TRACE, plainRound({ status: { code: 2, message: 'Tool getWeather failed: timeout' } }));
    expect(summary.status).toBe('error');
    expect(summary.errorMessage).toBe('Tool getWeather failed: timeout');
  });

  it('a failed child with an ok root is still ok (the loop recovered)', () => {
    const spans = plainRound();
    spans[3] = span('t1', { parent: 'root', start: 20, end: 25, attributes: tool('getWeather'), status: { code: 2, message: 'x' } });
    expect(summarizeTrace(TRACE, spans).status).toBe('ok');
  });

  it('is interrupted when the root generate output has finishReason "interrupted"', () => {
    const spans = [
      span('root', { start: 0, end: 50, attributes: generate({ finishReason: 'interrupted', message: { role: 'model', content: [] } }) }),
      span('m1', { parent: 'root', start: 1, end: 10, attributes: model('scripted/x') }),
      span('t1', {
        parent: 'root',
        start: 11,
        end: 12,
        attributes: { ...tool('askUser'), 'genkit:metadata:interrupt': '{}' },
        status: { code: 2, message: 'INTERRUPTED' },
      }),
    ];
    const summary = summarizeTrace(TRACE, spans);
    expect(summary.status).toBe('interrupted');
    expect(summary.errorMessage).toBeUndefined();
  });

  it('is incomplete while the root is open, with no end time', () => {
    const summary = summarizeTrace(TRACE, plainRound({ end: null }));
    expect(summary.status).toBe('incomplete');
    expect(summary.endTime).toBeUndefined();
    expect(summary.name).toBe('generate');
  });

  it('is incomplete when the root has not arrived (only children with a missing parent)', () => {
    const spans = plainRound().filter((candidate) => candidate.spanId !== 'root');
    const summary = summarizeTrace(TRACE, spans);
    expect(summary.status).toBe('incomplete');
    expect(summary.spanCount).toBe(5);
    // The earliest orphan names the trace meanwhile.
    expect(summary.name).toBe('vendor/model-a');
  });

  it('has no end time while any span is open, even when the root ended', () => {
    const spans = plainRound();
    spans[0] = span('m2', { parent: 'g2', start: 40, end: null, attributes: model('vendor/model-b') });
    const summary = summarizeTrace(TRACE, spans);
    expect(summary.endTime).toBeUndefined();
    expect(summary.status).toBe('ok');
  });

  it('takes the end time from the latest-ending span, not the root', () => {
    const spans = plainRound();
    spans.push(span('late', { parent: 'root', start: 95, end: 130 }));
    expect(summarizeTrace(TRACE, spans).endTime).toBe(BASE + 130);
  });

  it('uses the root\'s service name and omits a non-string one', () => {
    expect(summarizeTrace(TRACE, plainRound({ resource: { 'service.name': 'checkout' } })).serviceName).toBe('checkout');
    expect(summarizeTrace(TRACE, plainRound({ resource: {} })).serviceName).toBeUndefined();
    expect(summarizeTrace(TRACE, plainRound({ resource: { 'service.name': 42 } })).serviceName).toBeUndefined();
  });

  it('names a flow root by its genkit name', () => {
    const spans = [span('root', { attributes: { 'genkit:type': 'flow', 'genkit:name': 'bookTrain' } })];
    expect(summarizeTrace(TRACE, spans)).toMatchObject({ name: 'bookTrain', status: 'ok', models: [] });
  });

  it('summarizes an empty trace', () => {
    expect(summarizeTrace(TRACE, [])).toMatchObject({ name: 'empty trace', spanCount: 0, status: 'incomplete', startTime: 0, models: [] });
  });
});
