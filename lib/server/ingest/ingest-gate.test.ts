import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { IngestGate, partialSuccessProtobuf } from './ingest-gate';

/** The receiver's partial success and its load shedding (issue 15, item 2). */
describe('partial success', () => {
  it('the protobuf answer is an ExportTraceServiceResponse the OpenTelemetry exporters read as partial success', () => {
    const bytes = partialSuccessProtobuf(300, 'spans[1] (x): traceId: expected 32 lowercase hex characters — é');
    expect(ProtobufTraceSerializer.deserializeResponse(bytes)).toEqual({ partialSuccess: { rejectedSpans: 300, errorMessage: 'spans[1] (x): traceId: expected 32 lowercase hex characters — é' } });
    // The JSON answer's shape, as the JSON exporter reads it.
    const json = JsonTraceSerializer.deserializeResponse(new TextEncoder().encode(JSON.stringify({ partialSuccess: { rejectedSpans: 2, errorMessage: 'x' } })));
    expect(json).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'x' } });
  });
});

describe('load shedding', () => {
  it('lets one request of any size in, turns away what would pass the bound while others are in flight, and lets them in once those left', () => {
    const gate = new IngestGate(1_000);
    const big = gate.enter(5_000);
    expect(big.ok).toBe(true);
    const turnedAway = gate.enter(10);
    expect(turnedAway).toEqual({ ok: false, retryAfterSeconds: 1, inFlightBytes: 5_000 });
    if (big.ok) big.leave();
    if (big.ok) big.leave();
    expect(gate.inFlightBytes).toBe(0);
    const small = [gate.enter(400), gate.enter(400)];
    expect(small.every((pass) => pass.ok)).toBe(true);
    expect(gate.enter(400).ok).toBe(false);
    for (const pass of small) if (pass.ok) pass.leave();
    expect(gate.enter(400).ok).toBe(true);
  });
});
