import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { buildSpan } from '../spans/testing/build-span';
import { summarizeCapturedTrace } from './trace-sessions';
import { traceTitle } from './trace-title';

const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

describe('traceTitle', () => {
  it('names a scripted run by its scenario, whatever its root is', () => {
    const root = buildSpan({ spanId: '1000000000000001', name: 'generate', attributes: { 'genkit:type': 'util', 'genkit:name': 'generate' } });
    expect(traceTitle({ spans: [root], models: ['scripted/long-loop'] })).toMatchObject({ title: 'long-loop' });
  });

  it('names a flow by the flow, and a bare generate by its root span, with the genkit runtime', async () => {
    const flowSpans = await fixture('flow-two-generates');
    const flowTrace = flowSpans.filter((span) => span.traceId === flowSpans[0].traceId);
    const flow = summarizeCapturedTrace(flowSpans[0].traceId, flowTrace);
    expect(flow.title).not.toBe('generate');
    expect(flow.title).toBe(flow.name);
    expect(flow.runtime).toBe('genkit-js');

    const plain = await fixture('plain-round');
    const summary = summarizeCapturedTrace(plain[0].traceId, plain.filter((span) => span.traceId === plain[0].traceId));
    expect(summary.title).toBe('generate');
    expect(summary.runtime).toBe('genkit-js');
  });

  it('names a span of another runtime by its span name, without a runtime', () => {
    const root = buildSpan({ spanId: '1000000000000001', name: 'GET /checkout', attributes: { 'http.method': 'GET' } });
    expect(traceTitle({ spans: [root], models: [] })).toEqual({ title: 'GET /checkout' });
    expect(traceTitle({ spans: [], models: [] })).toEqual({ title: 'empty trace' });
  });
});
