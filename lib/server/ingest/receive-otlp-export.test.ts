import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarizeCapturedTrace } from '../../graph/trace-sessions';
import { TraceStore } from '../../store/trace-store';
import { EventBus, type LiveEvent } from '../live/event-bus';
import { IngestGate } from './ingest-gate';
import { receiveOtlpExport, type OtlpReceiverContext } from './receive-otlp-export';

/** Real SDK spans: per trace a root with `children` children. */
function recordSpans({ traces, children }: { traces: number; children: number }): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'receive-test' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('receive-test');
  for (let index = 0; index < traces; index += 1) {
    const root = tracer.startSpan(`root-${index}`, { attributes: { 'genkit:name': 'generate', 'genkit:type': 'util' } });
    for (let child = 0; child < children; child += 1) tracer.startSpan(`child-${child}`, {}, trace.setSpan(ROOT_CONTEXT, root)).end();
    root.end();
  }
  return exporter.getFinishedSpans();
}

const decoder = new TextDecoder();
const text = (bytes: Uint8Array) => decoder.decode(bytes);

let dataDir: string;
let context: OtlpReceiverContext & { store: TraceStore; bus: EventBus };
let events: LiveEvent[];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-receive-'));
  context = {
    store: new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace }),
    bus: new EventBus(),
    ingestGate: new IngestGate(),
  };
  events = [];
  context.bus.subscribe((event) => events.push(event));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** An OTLP JSON export whose second span has an all-zero span id (rejected alone). */
function jsonWithOneBadSpan(): Uint8Array {
  const request = JSON.parse(text(JsonTraceSerializer.serializeRequest(recordSpans({ traces: 1, children: 2 }))!)) as {
    resourceSpans: { scopeSpans: { spans: { spanId: string }[] }[] }[];
  };
  request.resourceSpans[0].scopeSpans[0].spans[1].spanId = '0000000000000000';
  return new TextEncoder().encode(JSON.stringify(request));
}

describe('receiveOtlpExport', () => {
  it('stores a JSON export, answers {} with its Content-Length, and publishes one spans event per trace and one traces-changed', async () => {
    const body = JsonTraceSerializer.serializeRequest(recordSpans({ traces: 2, children: 3 }))!;
    const answer = await receiveOtlpExport(context, { body, contentType: 'application/json', contentEncoding: null });
    expect(answer.status).toBe(200);
    expect(text(answer.body)).toBe('{}');
    expect(answer.headers).toEqual({ 'content-type': 'application/json', 'content-length': '2' });
    const listed = await context.store.list();
    expect(listed.map((summary) => summary.spanCount)).toEqual([4, 4]);
    const spanEvents = events.filter((event) => event.type === 'spans');
    expect(spanEvents.map((event) => (event.type === 'spans' ? [event.traceId, event.spans.length] : [])).sort()).toEqual(listed.map((summary) => [summary.traceId, 4]).sort());
    // Each event's spans are its own trace's only.
    for (const event of spanEvents) if (event.type === 'spans') expect(new Set(event.spans.map((span) => span.traceId))).toEqual(new Set([event.traceId]));
    expect(events.filter((event) => event.type === 'traces-changed')).toHaveLength(1);
    expect(context.ingestGate.inFlightBytes).toBe(0);
  });

  it('takes a gzipped protobuf export and answers an empty protobuf response', async () => {
    const body = gzipSync(ProtobufTraceSerializer.serializeRequest(recordSpans({ traces: 1, children: 5 }))!);
    const answer = await receiveOtlpExport(context, { body, contentType: 'application/x-protobuf', contentEncoding: 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-protobuf');
    expect(answer.body.byteLength).toBe(0);
    expect((await context.store.list()).map((summary) => summary.spanCount)).toEqual([6]);
  });

  it('rejects a malformed span alone: partial success in JSON and in protobuf, the good spans stored', async () => {
    const json = await receiveOtlpExport(context, { body: jsonWithOneBadSpan(), contentType: 'application/json', contentEncoding: null });
    expect(json.status).toBe(200);
    expect(JSON.parse(text(json.body))).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 span(s) rejected, the others stored; the first: Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[1].spanId: an id of all zeros is invalid.' },
    });
    expect(json.headers['content-length']).toBe(String(json.body.byteLength));
    expect((await context.store.list())[0].spanCount).toBe(2);
  });

  it('answers 400 with a google.rpc.Status when nothing in the export is good, storing nothing', async () => {
    const answer = await receiveOtlpExport(context, { body: new TextEncoder().encode('{"resourceSpans": 5}'), contentType: 'application/json', contentEncoding: null });
    expect(answer.status).toBe(400);
    expect(JSON.parse(text(answer.body))).toEqual({ code: 3, message: 'Invalid OTLP JSON at resourceSpans: expected array, received number.' });
    expect(await context.store.list()).toEqual([]);
    expect(events).toEqual([]);
    expect(context.ingestGate.inFlightBytes).toBe(0);
  });

  it('answers 503 with Retry-After while the gate holds its bound, and stores once it is free', async () => {
    context.ingestGate = new IngestGate(100);
    const holding = context.ingestGate.enter(100);
    const body = JsonTraceSerializer.serializeRequest(recordSpans({ traces: 1, children: 1 }))!;
    const shed = await receiveOtlpExport(context, { body, contentType: 'application/json', contentEncoding: null });
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(JSON.parse(text(shed.body)).code).toBe(14);
    expect(await context.store.list()).toEqual([]);
    if (holding.ok) holding.leave();
    expect((await receiveOtlpExport(context, { body, contentType: 'application/json', contentEncoding: null })).status).toBe(200);
    expect((await context.store.list())[0].spanCount).toBe(2);
  });

  it('answers 415 for a content type that is not OTLP', async () => {
    const answer = await receiveOtlpExport(context, { body: new TextEncoder().encode('x'), contentType: 'text/plain', contentEncoding: null });
    expect(answer.status).toBe(415);
    expect(JSON.parse(text(answer.body)).message).toContain('text/plain');
  });
});
