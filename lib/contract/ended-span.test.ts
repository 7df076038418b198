import { deserialize, serialize } from 'node:v8';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { EndedSpanRecord, RunnerEvent } from '../runner/runner-protocol';
import { RunnerSpanOutbox } from '../runner/runner-span-outbox';
import { decodeOtlpJson } from '../spans/otlp-json';
import { spanFromEndedRecord } from './ended-span';

/** Real SDK spans, ended; what the runner's outbox sends for them; what the OTLP exporter would. */
function endedSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'loopscope-runner' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('genkit-tracer', 'v1');
  const parent = tracer.startSpan('generate', { attributes: { 'genkit:type': 'util', 'genkit:isRoot': true } });
  const child = tracer.startSpan(
    'getWeather',
    { kind: SpanKind.CLIENT, attributes: { 'genkit:input': '{"city":"Paris"}', 'genkit:metadata:subtype': 'tool', count: 3, ratio: 0.5, tags: ['a', 'b'] } },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent('exception', { 'exception.type': 'Error', 'exception.message': 'rain' });
  child.addLink({ context: parent.spanContext(), attributes: { why: 'answers' } });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'rain' });
  child.end();
  parent.end();
  return exporter.getFinishedSpans();
}

describe('spanFromEndedRecord', () => {
  it('gives the span the OTLP exporter would have delivered, from the runner’s IPC record', () => {
    const spans = endedSpans();
    const sent: RunnerEvent[] = [];
    const outbox = new RunnerSpanOutbox((event) => sent.push(deserialize(serialize(event)) as RunnerEvent));
    for (const span of spans) outbox.queueEnd(span, { runId: 'run-1', requestId: 'run-1:1' });
    outbox.flush();
    const records = sent.flatMap((event) => (event.type === 'span-events' ? event.ends : []));
    expect(records).toHaveLength(2);
    expect(records.map((record) => record.requestId)).toEqual(['run-1:1', 'run-1:1']);

    const exported = decodeOtlpJson(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as never))));
    const fromRecords = records.map(spanFromEndedRecord);
    const byId = new Map(exported.map((span) => [span.spanId, span]));
    for (const span of fromRecords) {
      const twin = byId.get(span.spanId)!;
      expect({ ...span, attributes: { ...span.attributes }, resource: { ...span.resource } }).toEqual({
        ...twin,
        attributes: { ...twin.attributes },
        resource: { ...twin.resource },
        events: twin.events.map((event) => ({ ...event, attributes: { ...event.attributes } })),
        links: twin.links.map((link) => ({ ...link, attributes: { ...link.attributes } })),
      });
    }
  });

  it('refuses a record whose times are not SDK times, and keeps odd attribute values as text', () => {
    const record: EndedSpanRecord = {
      runId: 'r',
      requestId: 'r:1',
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      name: 'x',
      kind: 0,
      startTime: [1, 0],
      endTime: [2, 0],
      attributes: { nested: { deep: true }, missing: undefined },
      events: [],
      links: [],
      status: { code: 0 },
      resource: {},
      scope: { name: 'genkit-tracer' },
    };
    expect(spanFromEndedRecord(record).attributes).toEqual(Object.assign(Object.create(null), { nested: '{"deep":true}', missing: null }));
    expect(spanFromEndedRecord(record).endTimeUnixNano).toBe('2000000000');
    expect(() => spanFromEndedRecord({ ...record, endTime: ['2', 0] as unknown as [number, number] })).toThrow('endTime is not an [seconds, nanoseconds] time');
  });
});
