import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';
import { buildSpan } from '../trace/testing/build-span';
import { dialectDispatch } from './dialect-dispatch';
import { DIALECTS } from './registry';
import type { RuntimeDialect } from './runtime-dialect';
import { toyLoop } from './testing/toy-loop';

/** The definition the dispatcher must agree with: the first dialect, in order, whose `claims` says so. */
const firstClaiming = (dialects: readonly RuntimeDialect[], span: Span) => dialects.find((dialect) => dialect.claims(span));

/** Every span of the recorded traces: shipped examples and every dialect's fixtures. */
async function recordedSpans(): Promise<Span[]> {
  const root = process.cwd();
  const folders = ['traces', 'lib/graph/__fixtures__', ...['ai-sdk', 'otel-genai', 'genkit-go'].map((runtime) => `lib/dialects/${runtime}/__fixtures__`), 'lib/dialects/testing/toy-loop'];
  const files = folders.flatMap((folder) => readdirSync(path.join(root, folder)).filter((name) => name.endsWith(folder === 'traces' ? '.json' : '.otlp.json')).map((name) => path.join(root, folder, name)));
  return (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
}

describe('dialectDispatch', () => {
  it('answers as asking every dialect in order does, on every recorded span', async () => {
    const spans = await recordedSpans();
    expect(spans.length).toBeGreaterThan(400);
    const dispatch = dialectDispatch(DIALECTS);
    const withToy = [...DIALECTS, toyLoop];
    const dispatchWithToy = dialectDispatch(withToy);
    for (const span of spans) {
      expect(dispatch(span)?.id).toBe(firstClaiming(DIALECTS, span)?.id);
      expect(dispatchWithToy(span)?.id).toBe(firstClaiming(withToy, span)?.id);
    }
    // All four read some of them.
    expect(new Set(spans.map((span) => dispatchWithToy(span)?.id))).toEqual(new Set(['genkit-js', 'genkit-go', 'ai-sdk', 'toy-loop', undefined]));
  });

  it('asks a dialect only about spans with its scope, attributes or name, and one with no keys about every span', () => {
    const asked: string[] = [];
    const dialect = (id: string, claimedBy?: RuntimeDialect['claimedBy']): RuntimeDialect =>
      ({ id, claimedBy, claims: (span: Span) => (asked.push(`${id}:${span.name}`), span.attributes.owner === id || span.scope.name === id) }) as RuntimeDialect;
    const dispatch = dialectDispatch([dialect('by-attribute', { attributes: ['a.kind'] }), dialect('by-scope', { scopes: ['by-scope'] }), dialect('by-name', { spanNames: ['named'] }), dialect('everything')]);
    const plain = buildSpan({ name: 'plain', attributes: { owner: 'everything' } });
    expect(dispatch(plain)?.id).toBe('everything');
    expect(asked).toEqual(['everything:plain']);
    asked.length = 0;
    // An attribute that is present counts whatever its value (null: a key sent without a value).
    const attributed = buildSpan({ name: 'attributed', attributes: { 'a.kind': null, owner: 'by-attribute' } });
    expect(dispatch(attributed)?.id).toBe('by-attribute');
    expect(asked).toEqual(['by-attribute:attributed']);
    asked.length = 0;
    const scoped = buildSpan({ name: 'named', scope: { name: 'by-scope' } });
    expect(dispatch(scoped)?.id).toBe('by-scope');
    expect(asked).toEqual(['by-scope:named']);
    asked.length = 0;
    // In order: a span that meets several dialects' keys is asked of each until one claims it.
    const unclaimed = buildSpan({ name: 'named', attributes: { 'a.kind': 'x' } });
    expect(dispatch(unclaimed)).toBeUndefined();
    expect(asked).toEqual(['by-attribute:named', 'by-name:named', 'everything:named']);
  });
});
