import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../errors';
import { decodeOtlpJsonByResource as decodeSource, textSource } from './otlp-json-by-resource';
import { decodeCanonicalOtlpJson } from './otlp-json-fast';
import { parseTraceText } from './parse-trace-text';
import { recordedTraceFiles } from './testing/recorded-trace-files';

const decodeOtlpJsonByResource = (text: string) => decodeSource(textSource(text));

const span = (spanId: string) => ({ traceId: 'a'.repeat(32), spanId: spanId.repeat(16), name: `span ${spanId}`, kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' });
const element = (service: string, ...spanIds: string[]) => ({ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ scope: { name: 's' }, spans: spanIds.map(span) }] });
const body = { resourceSpans: [element('one', 'b', 'c'), element('two', 'd'), element('three', 'e', 'f')] };
const compact = JSON.stringify(body);

describe('decodeOtlpJsonByResource', () => {
  it('gives what decoding the whole parsed text gives, on every recorded OTLP JSON trace it can split', () => {
    let split = 0;
    for (const file of recordedTraceFiles()) {
      const text = readFileSync(file, 'utf8');
      const byResource = decodeOtlpJsonByResource(text);
      if (!byResource) continue;
      split += 1;
      expect(byResource, file).toEqual(decodeCanonicalOtlpJson(JSON.parse(text)));
    }
    // The exporters' compact layout is what the repository's recordings have: most are split.
    expect(split).toBeGreaterThan(50);
  });

  it('reads a compact body of several elements, whitespace between them and at the end allowed', () => {
    const whole = decodeCanonicalOtlpJson(body);
    expect(decodeOtlpJsonByResource(compact)).toEqual(whole);
    expect(decodeOtlpJsonByResource(compact.replaceAll('},{"resource":', '}\n ,\r\n\t{"resource":').replace(/]}$/, ' ]\n}\n'))).toEqual(whole);
    expect(decodeOtlpJsonByResource(` \n{ "resourceSpans" : [ ${compact.slice('{"resourceSpans":['.length)}`)).toEqual(whole);
    // Indented, as Loopscope saves a trace; other members before the list, as a fixture's description.
    expect(decodeOtlpJsonByResource(JSON.stringify(body, null, 2))).toEqual(whole);
    expect(decodeOtlpJsonByResource(JSON.stringify({ description: 'a "resource": {', partialSuccess: {}, ...body }, null, 1))).toEqual(whole);
    expect(whole).toHaveLength(5);
  });

  it('leaves every text that is not certainly the list of its elements to be parsed whole', () => {
    const refused = {
      'an element not starting with its resource': JSON.stringify({ resourceSpans: [{ scopeSpans: element('one', 'b').scopeSpans, resource: element('one', 'b').resource }] }),
      'a resourceSpans member before the list': `{"resourceSpans":1,${compact.slice(1)}`,
      'a head that is not JSON': `{"description":,${compact.slice(1)}`,
      'a key after the list': `${compact.slice(0, -1)},"other":{"resource":{}}}`,
      'two commas between elements': compact.replace('},{"resource":', '},,{"resource":'),
      'a trailing comma in the list': compact.replace(/]}$/, ',]}'),
      'text after the body': `${compact} x`,
      'no closing brace': compact.slice(0, -1),
      'an element holding another {"resource": (after a colon)': compact.replace('"scopeSpans"', '"x":{"resource":1},"scopeSpans"'),
      'an element holding another {"resource": (after a comma)': compact.replace('"scopeSpans"', '"x":[1,{"resource":1}],"scopeSpans"'),
      'an element the fast decoder does not read': compact.replace('"kind":1', '"kind":"SPAN_KIND_INTERNAL"'),
      'an element that is not JSON': compact.replace('"kind":1', '"kind":01'),
    };
    for (const [what, text] of Object.entries(refused)) expect(decodeOtlpJsonByResource(text), what).toBeUndefined();
  });

  it('leaves a broken text to the whole parse, whose error names it as before', () => {
    const broken = compact.replace('},{"resource":', '},,{"resource":');
    expect(() => parseTraceText(broken, 'broken.json')).toThrow(LoopscopeError);
    expect(() => parseTraceText(broken, 'broken.json')).toThrow(/^broken\.json: .*JSON/);
    // A body the tolerant path reads (an enum name) is still read, whole.
    expect(parseTraceText(compact.replace('"kind":1', '"kind":"SPAN_KIND_INTERNAL"'), 'named.json')).toHaveLength(5);
  });
});
