import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { buildSpan } from '../spans/testing/build-span';
import { dialectDispatch } from './dialect-dispatch';
import { DIALECTS } from '../runtimes/index';
import type { RuntimeDialect } from './runtime-dialect';
import { toyLoop } from '../runtimes/toy/read';

/** The definition the dispatcher must agree with: the first dialect, in order, whose `claims` says so. */
const firstClaiming = (dialects: readonly RuntimeDialect[], span: Span) => dialects.find((dialect) => dialect.claims(span));

/** Every span of the recorded traces: shipped examples and every dialect's fixtures. */
async function recordedSpans(): Promise<Span[]> {
  const root = process.cwd();
  const runtimes = readdirSync(path.join(root, 'lib', 'runtimes'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const fixtureFolders = runtimes.map((entry) => `lib/runtimes/${entry.name}/__fixtures__`).filter((folder) => existsSync(path.join(root, folder)));
  const folders = ['traces', 'lib/graph/__fixtures__', ...fixtureFolders, 'lib/runtimes/toy'];
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
    // Every dialect, the toy's included, reads some of them.
    expect(new Set(spans.map((span) => dispatchWithToy(span)?.id))).toEqual(new Set([...withToy.map((dialect) => dialect.id), undefined]));
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
