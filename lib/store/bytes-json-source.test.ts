import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOtlpJsonByResource, textSource } from '../spans/otlp-json-by-resource';
import { parseTraceText } from '../spans/parse-trace-text';
import { recordedTraceFiles } from '../spans/testing/recorded-trace-files';
import { bytesJsonSource } from './bytes-json-source';
import { parseTraceBytes } from './load-trace-file';

/** One span whose name and attribute hold `text`, in a compact export request of two elements. */
function bodyWith(text: string): string {
  const span = (spanId: string) => `{"traceId":"${'a'.repeat(32)}","spanId":"${spanId.repeat(16)}","name":"${text}","kind":1,"startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"k","value":{"stringValue":"${text}"}}]}`;
  const element = (service: string, spanId: string) => `{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"${service}"}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[${span(spanId)}]}]}`;
  return `{"resourceSpans":[${element('one', 'b')},${element('two', 'c')}]}`;
}

const fromBytes = (bytes: Buffer) => decodeOtlpJsonByResource(bytesJsonSource(bytes));

describe('bytesJsonSource', () => {
  it('reads every recorded trace as its UTF-8 text reads, non-ASCII characters included', () => {
    let withNonAscii = 0;
    for (const file of recordedTraceFiles()) {
      const bytes = readFileSync(file);
      const fromText = decodeOtlpJsonByResource(textSource(bytes.toString('utf8')));
      expect(fromText, file).toBeDefined();
      expect(fromBytes(bytes), file).toEqual(fromText);
      if (bytes.some((byte) => byte >= 0x80)) withNonAscii += 1;
    }
    expect(withNonAscii).toBeGreaterThan(10);
  });

  it('gives each character what UTF-8 decoding gives: two-, three- and four-byte ones, and invalid bytes as U+FFFD', () => {
    const texts = ['café — 30 °C → ok', 'emoji 🙂 and 𝄞', 'a\\nb\\"c\\\\ — é', '\\u00e9 written as an escape, é as a character'];
    for (const text of texts) {
      const bytes = Buffer.from(bodyWith(text), 'utf8');
      const spans = fromBytes(bytes);
      expect(spans, text).toEqual(decodeOtlpJsonByResource(textSource(bytes.toString('utf8'))));
      expect(spans?.[0].name).toBe(JSON.parse(`"${text}"`));
    }
    // A lone continuation byte and a truncated sequence, inside a string.
    const invalid = Buffer.from(bodyWith('x').replace('"name":"x"', '"name":"a\u0001b"'));
    invalid[invalid.indexOf(0x01)] = 0x80;
    const withTruncated = Buffer.from(bodyWith('y'));
    withTruncated[withTruncated.indexOf('"name":"y"') + 8] = 0xe2;
    for (const bytes of [invalid, withTruncated]) {
      const spans = fromBytes(bytes);
      expect(spans).toEqual(decodeOtlpJsonByResource(textSource(bytes.toString('utf8'))));
      expect(spans?.[0].name).toContain('\ufffd');
    }
  });

  it('never lets an escape change the meaning: a backslash before a non-ASCII byte reads the element as UTF-8', () => {
    // `"\\é"`: an escaped backslash, then é — valid, read as it is.
    const escapedBackslash = Buffer.from(bodyWith('\\\\é'), 'utf8');
    expect(fromBytes(escapedBackslash)?.[0].name).toBe('\\é');
    // `"\é"` is not JSON: written as `"\\u00e9"` it would be. Not read here; the whole parse explains it.
    const broken = Buffer.from(bodyWith('\\é'), 'utf8');
    expect(fromBytes(broken)).toBeUndefined();
    expect(() => parseTraceBytes(broken, 'broken.json')).toThrow(/^broken\.json: /);
    expect(() => parseTraceText(broken.toString('utf8'), 'broken.json')).toThrow(/^broken\.json: /);
  });

  it('leaves a file with a byte order mark, or non-ASCII outside strings, to the whole parse, which reads or refuses it as before', () => {
    const body = bodyWith('é');
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
    expect(fromBytes(withMark)).toBeUndefined();
    expect(parseTraceBytes(withMark, 'marked.json')).toEqual(parseTraceText(body, 'marked.json'));
    const outside = Buffer.from(body.replace('"kind":1', '"kind":1é'), 'utf8');
    expect(fromBytes(outside)).toBeUndefined();
    expect(() => parseTraceBytes(outside, 'outside.json')).toThrow(/^outside\.json: /);
  });
});
