import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopscopeError } from '../errors';
import { loadTraceFile, parseTraceBytes, parseTraceText } from './load-trace-file';
import { encodeOtlpJson } from '../spans/otlp-json';
import type { Span } from '../spans/span';
import { buildSpan, type SpanOverrides } from '../spans/testing/build-span';
import { MAX_JSON_DEPTH } from '../spans/parse-json-limited';
import { deepArrayText, deepKvlistValueText, deepObjectText, OTLP_ATTRIBUTE_VALUE_DEPTH, otlpBodyText } from '../spans/testing/deep-json';
import { encodeOtlpProtobufFile } from '../spans/testing/otlp-protobuf-file';
import { thrownLoopscopeError } from '../spans/testing/thrown-error';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const OTHER_TRACE_ID = 'cccccccccccccccccccccccccccccccc';

function span(spanId: string, overrides: SpanOverrides = {}): Span {
  return buildSpan({
    traceId: TRACE_ID,
    spanId,
    name: `span-${spanId}`,
    startTimeUnixNano: '1718000000000000000',
    endTimeUnixNano: '1718000001000000000',
    ...overrides,
  });
}

const rootOpen = span('aaaaaaaaaaaaaaaa', { endTimeUnixNano: undefined });
const rootEnded = span('aaaaaaaaaaaaaaaa');
const child = span('bbbbbbbbbbbbbbbb', { parentSpanId: 'aaaaaaaaaaaaaaaa' });

const genkitTraceData = {
  traceId: OTHER_TRACE_ID,
  spans: {
    dddddddddddddddd: {
      spanId: 'dddddddddddddddd',
      traceId: OTHER_TRACE_ID,
      startTime: 1718000000000,
      endTime: 1718000000500,
      attributes: { 'genkit:name': 'myFlow', 'genkit:type': 'flow' },
      displayName: 'myFlow',
      instrumentationLibrary: { name: 'genkit-tracer', version: 'v1' },
      spanKind: 'INTERNAL',
    },
  },
};

describe('parseTraceText', () => {
  it('reads an OTLP JSON export request (with a BOM)', () => {
    const text = `\uFEFF${JSON.stringify(encodeOtlpJson([rootEnded, child]))}`;
    expect(parseTraceText(text, 'a.json')).toEqual([rootEnded, child]);
  });

  it('reads Genkit TraceData', () => {
    const spans = parseTraceText(JSON.stringify(genkitTraceData), 'trace');
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ traceId: OTHER_TRACE_ID, name: 'myFlow', endTimeUnixNano: '1718000000500000000' });
  });

  it('reads a JSON array mixing both formats', () => {
    const text = JSON.stringify([encodeOtlpJson([rootEnded]), genkitTraceData]);
    expect(parseTraceText(text, 'mixed.json').map((item) => item.traceId)).toEqual([TRACE_ID, OTHER_TRACE_ID]);
  });

  it('reads JSONL, skipping blank lines, and merges re-exported spans (ended wins over open)', () => {
    const lines = [
      JSON.stringify(encodeOtlpJson([rootOpen])),
      '',
      JSON.stringify(encodeOtlpJson([child])),
      JSON.stringify(encodeOtlpJson([rootEnded])),
      '   ',
      JSON.stringify(encodeOtlpJson([rootOpen])), // a late start export must not reopen the span
      JSON.stringify(genkitTraceData),
      '',
    ];
    const spans = parseTraceText(lines.join('\r\n'), 'capture.jsonl');
    expect(spans.map((item) => item.spanId)).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'dddddddddddddddd']);
    expect(spans[0]).toEqual(rootEnded);
  });

  it('names the bad line of a JSONL file', () => {
    const good = JSON.stringify(encodeOtlpJson([rootEnded]));
    const notJson = thrownLoopscopeError(() => parseTraceText([good, '', '{"resourceSpans": [', good].join('\n'), 'capture.jsonl'));
    expect(notJson.code).toBe('INVALID_ARGUMENT');
    expect(notJson.message).toMatch(/^capture\.jsonl: line 3 is not valid JSON: /);
    const invalid = thrownLoopscopeError(() => parseTraceText([good, '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"x"}]}]}]}'].join('\n'), 'capture.jsonl'));
    expect(invalid.message).toMatch(/^capture\.jsonl: line 2: Invalid OTLP JSON at resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId: expected 32 hex/);
    const notTrace = thrownLoopscopeError(() => parseTraceText([good, '{"hello":1}'].join('\n'), 'capture.jsonl'));
    expect(notTrace.message).toMatch(/^capture\.jsonl: line 2: not a trace: expected an OTLP JSON export request/);
  });

  it('explains empty, broken and foreign inputs with the source name', () => {
    expect(thrownLoopscopeError(() => parseTraceText('  \n', 'empty.json')).message).toBe('empty.json: the file is empty.');
    expect(thrownLoopscopeError(() => parseTraceText('{\n  "resourceSpans": [\n', 'broken.json')).message).toMatch(/^broken\.json: not valid JSON: /);
    expect(thrownLoopscopeError(() => parseTraceText('{"name":"package"}', 'package.json')).message).toMatch(/^package\.json: not a trace: /);
    expect(thrownLoopscopeError(() => parseTraceText('[1]', 'list.json')).message).toMatch(/^list\.json: item \[0\]: not a trace/);
    const nested = thrownLoopscopeError(() => parseTraceText(JSON.stringify([genkitTraceData, { traceId: 'bad', spans: {} }]), 'list.json'));
    expect(nested.message).toBe('list.json: item [1]: Invalid Genkit TraceData at traceId: expected 32 hex characters (or base64 of 16 bytes), got "bad".');
    expect(nested.cause).toBeDefined();
  });
});

describe('parseTraceText: input nested past the limit', () => {
  const deepOtlp = (levels: number) => otlpBodyText({ valueText: deepKvlistValueText(levels) });
  const deepTraceData = (levels: number) =>
    JSON.stringify(genkitTraceData).replace('"genkit:type":"flow"', `"genkit:type":"flow","deep":${deepObjectText(levels)}`);

  it.each([10_000, 1_000])('refuses a trace file, a Genkit TraceData file and a JSON list nested %i levels deep, naming the depth', (levels) => {
    const otlp = thrownLoopscopeError(() => parseTraceText(deepOtlp(levels), 'deep.json'));
    expect(otlp.code).toBe('INVALID_ARGUMENT');
    expect(otlp.message).toBe(`deep.json: nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 4 * levels} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
    // The document, spans, the span and its attributes hold the deep value: 4 levels above it.
    expect(thrownLoopscopeError(() => parseTraceText(deepTraceData(levels), 'trace-data.json')).message).toBe(
      `trace-data.json: nested ${levels + 4} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
    );
    expect(thrownLoopscopeError(() => parseTraceText(`[${deepArrayText(levels)}]`, 'list.json')).message).toBe(
      `list.json: nested ${levels + 1} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
    );
  });

  it('reads a canonical file whose attribute nests deeper than the fast decoder keeps, within the limit, as the tolerant path does', () => {
    // 29 kvlistValues: 10 + 4 × 29 = 126 levels, past the fast decoder's 24 AnyValues.
    const [span] = parseTraceText(deepOtlp(29), 'deep.json');
    let value = span.attributes.deep;
    for (let level = 0; level < 29; level++) value = (value as Record<string, unknown>).k as typeof value;
    expect(value).toBe('leaf');
    expect(() => parseTraceText(deepOtlp(30), 'deep.json')).toThrow(`deep.json: nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 120} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
  });

  it('reads a canonical file with a deep field it does not keep: nothing walks what is dropped', () => {
    const text = otlpBodyText().replace('{"resourceSpans":', `{"unknownField":${deepArrayText(10_000)},"resourceSpans":`);
    expect(parseTraceText(text, 'extra.json')).toHaveLength(1);
  });

  it('names the JSONL line nested too deep', () => {
    const good = JSON.stringify(encodeOtlpJson([rootEnded]));
    const error = thrownLoopscopeError(() => parseTraceText([good, '', deepOtlp(10_000), good].join('\n'), 'capture.jsonl'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(`capture.jsonl: line 3 is nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 40_000} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
  });

  it('refuses a deep file read from disk with its path', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'loopscope-deep-'));
    try {
      const file = path.join(folder, 'deep.json');
      await writeFile(file, deepOtlp(1_000));
      await expect(loadTraceFile(file)).rejects.toThrow(`${file}: nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 4_000} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('loadTraceFile', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'loopscope-load-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads a file from disk', async () => {
    const file = path.join(folder, 'trace.json');
    await writeFile(file, JSON.stringify(encodeOtlpJson([rootEnded, child])));
    expect(await loadTraceFile(file)).toHaveLength(2);
  });

  it('reports a missing file as NOT_FOUND with its path, and a malformed one with its path', async () => {
    const missing = path.join(folder, 'nope.json');
    const error = await loadTraceFile(missing).catch((caught: unknown) => caught);
    expect(LoopscopeError.isInstance(error) && error.code).toBe('NOT_FOUND');
    expect((error as Error).message).toBe(`Trace file not found: ${missing}`);
    const broken = path.join(folder, 'broken.json');
    await writeFile(broken, '{"resourceSpans": 3}');
    await expect(loadTraceFile(broken)).rejects.toThrow(`${broken}: Invalid OTLP JSON at resourceSpans: expected array, received number.`);
    await expect(loadTraceFile(folder)).rejects.toThrow('is a folder, not a trace file');
  });
});

describe('loadTraceFile: OTLP protobuf files', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'loopscope-protobuf-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  const write = async (name: string, bytes: Uint8Array | string) => {
    const file = path.join(folder, name);
    await writeFile(file, bytes);
    return file;
  };
  /** Committed traces of real genkit runs, as the OTel SDK's protobuf serializer encodes their spans. */
  const fixtures = readdirSync('traces').filter((name) => name.endsWith('.json'));
  /**
   * proto3 cannot tell an absent status message from an empty one, and the protobuf decoder
   * fills the default in (otlp-protobuf.ts): the one difference from the JSON reading.
   */
  // proto3 cannot tell an empty string from an absent one: a status message and a scope version ('' when a tracer has none).
  const withoutEmptyStatusMessage = (spans: Span[]) =>
    spans.map((item) => ({
      ...item,
      status: item.status.message === '' ? { code: item.status.code } : item.status,
      ...(item.scope ? { scope: item.scope.version === '' || item.scope.version === undefined ? { name: item.scope.name } : item.scope } : {}),
    }));

  it.each(fixtures)('reads %s encoded by ProtobufTraceSerializer as the same spans as its JSON', async (name) => {
    const fromJson = await loadTraceFile(path.join('traces', name));
    const protobuf = encodeOtlpProtobufFile(fromJson);
    // Not JSON by accident: the sniffing is what is under test.
    expect(protobuf[0]).toBe(0x0a);
    expect(withoutEmptyStatusMessage(await loadTraceFile(await write(`${name}.pb`, protobuf)))).toEqual(withoutEmptyStatusMessage(fromJson));
  });

  it('sniffs the format, whatever the name, and reads gzipped protobuf and gzipped JSON', async () => {
    const fromJson = await loadTraceFile('traces/restart-after-approval.json');
    const protobuf = encodeOtlpProtobufFile(fromJson);
    for (const name of ['trace.bin', 'trace.otlp', 'trace', 'trace.json']) {
      expect(withoutEmptyStatusMessage(await loadTraceFile(await write(name, protobuf)))).toEqual(withoutEmptyStatusMessage(fromJson));
    }
    expect(withoutEmptyStatusMessage(await loadTraceFile(await write('trace.pb.gz', gzipSync(protobuf))))).toEqual(withoutEmptyStatusMessage(fromJson));
    expect(await loadTraceFile(await write('trace.json.gz', gzipSync(JSON.stringify(encodeOtlpJson(fromJson)))))).toEqual(fromJson);
  });

  it('reads a protobuf request whose first bytes look like JSON ("\\n{" or "\\n[")', () => {
    // The first byte of a request is 0x0a ("\n"); its next one, the first ResourceSpans' length,
    // is "{" when that message is 123 bytes long and "[" at 91.
    for (const lookalike of [0x7b, 0x5b]) {
      const bytes = Array.from({ length: 80 }, (_, size) => encodeOtlpProtobufFile([span('aaaaaaaaaaaaaaaa', { name: 'n'.repeat(size + 1), resource: {}, scope: { name: 's' } })])).find(
        (candidate) => candidate[1] === lookalike,
      );
      expect(bytes, `no request found starting 0x0a 0x${lookalike.toString(16)}`).toBeDefined();
      expect(parseTraceBytes(bytes!, 'lookalike.pb').map((item) => item.spanId)).toEqual(['aaaaaaaaaaaaaaaa']);
    }
    // Broken JSON that starts the same way keeps its JSON error.
    expect(() => parseTraceBytes(new TextEncoder().encode('\n{"resourceSpans": ['), 'broken.json')).toThrow(/^broken\.json: not valid JSON: /);
  });

  it('names the file and the problem of a file that is neither JSON nor a trace in protobuf', async () => {
    const protobuf = encodeOtlpProtobufFile(await loadTraceFile('traces/plain-tool-round.json'));
    const truncated = await write('truncated.pb', protobuf.subarray(0, protobuf.length - 7));
    await expect(loadTraceFile(truncated)).rejects.toThrow(
      new RegExp(`^${truncated}: not JSON, and not an OTLP protobuf ExportTraceServiceRequest either: .* at byte offset \\d+\\.$`),
    );
    // Well-formed protobuf without a single span (a field that ExportTraceServiceRequest does not have).
    const empty = await write('empty.pb', Uint8Array.of(0x12, 0x00));
    await expect(loadTraceFile(empty)).rejects.toThrow(`${empty}: not a trace: it is not JSON, and read as an OTLP protobuf ExportTraceServiceRequest it holds no spans.`);
    const picture = await write('picture.png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a));
    await expect(loadTraceFile(picture)).rejects.toThrow(new RegExp(`^${picture}: not JSON, and not an OTLP protobuf ExportTraceServiceRequest either: `));
    const badGzip = await write('bad.gz', Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02));
    await expect(loadTraceFile(badGzip)).rejects.toThrow(new RegExp(`^${badGzip}: starts like gzip but is not valid gzip: `));
    // JSON that is not an object or a list is still "not a trace", not "not protobuf".
    await expect(loadTraceFile(await write('number.json', '42'))).rejects.toThrow(/number\.json: not a trace: expected an OTLP JSON export request/);
  });

  it('holds protobuf spans to the rules JSON spans follow, with the same message', async () => {
    const badId = encodeOtlpProtobufFile([span('abcd')]);
    const error = await loadTraceFile(await write('bad-id.pb', badId)).catch((caught: unknown) => caught);
    expect(LoopscopeError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
    expect((error as Error).message).toMatch(new RegExp(`^${path.join(folder, 'bad-id.pb')}: Invalid OTLP JSON at resourceSpans\\[0\\]\\.scopeSpans\\[0\\]\\.spans\\[0\\]\\.spanId: `));
  });
});
