import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../runtimes/index';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { goldenSources } from './__goldens__/golden-sources';
import { buildRunGraph } from './build-run-graph';

/** Every text JSON.parse is given through the one limited parser (lib/spans/parse-json-limited.ts). */
const parsedTexts = vi.hoisted(() => [] as string[]);
vi.mock('../spans/parse-json-limited', async (importOriginal) => {
  const original = await importOriginal<typeof import('../spans/parse-json-limited')>();
  return {
    ...original,
    tryParseJsonLimited: (input: string | Uint8Array, maxDepth?: number) => {
      if (typeof input === 'string') parsedTexts.push(input);
      return original.tryParseJsonLimited(input, maxDepth);
    },
  };
});

const sources = goldenSources();

/** How many attribute slots of the spans hold each text. */
function attributeTexts(spans: readonly Span[]): Map<string, number> {
  const texts = new Map<string, number>();
  for (const span of spans) for (const value of Object.values(span.attributes)) if (typeof value === 'string') texts.set(value, (texts.get(value) ?? 0) + 1);
  return texts;
}

/**
 * What a build does per span stays flat as runtimes are added (docs/performance.md, "Graph
 * build"): each span is claimed once, by one dispatch that asks only the runtimes whose scope,
 * attributes or name it carries, and each JSON attribute is parsed at most once.
 */
describe('what a build reads of each span', () => {
  /** The spans each dialect's `claims` is asked about in one build of a file's spans. */
  async function claimsAsked(file: string): Promise<Map<RuntimeDialect, Span[]>> {
    const spans = await loadTraceFile(file);
    const asked = new Map<RuntimeDialect, Span[]>(DIALECTS.map((dialect) => [dialect, []]));
    const counted = DIALECTS.map((dialect): RuntimeDialect => ({
      ...dialect,
      claims: (span) => {
        asked.get(dialect)?.push(span);
        return dialect.claims(span);
      },
    }));
    buildRunGraph(spans, { dialects: counted });
    return asked;
  }

  it.each(sources.map((source) => [path.basename(source.file), source.file]))('%s: each dialect is asked to claim a span at most once', async (_name, file) => {
    for (const [dialect, spans] of await claimsAsked(file)) expect(spans.length, `${dialect.id} asked twice about a span`).toBe(new Set(spans).size);
  });

  it.each(sources.map((source) => [path.basename(source.file), source.file]))('%s: a dialect is asked only about spans that carry its keys', async (_name, file) => {
    for (const [dialect, spans] of await claimsAsked(file)) {
      const { scopes = [], attributes = [], spanNames = [] } = dialect.claimedBy ?? {};
      for (const span of spans) expect(scopes.includes(span.scope.name) || attributes.some((key) => span.attributes[key] !== undefined) || spanNames.includes(span.name), `${dialect.id} asked about ${span.name}`).toBe(true);
    }
  });

  /** The texts of the spans' attributes that a build of them parsed more often than they are held. */
  async function parsedTwice(file: string): Promise<string[]> {
    const spans = await loadTraceFile(file);
    const held = attributeTexts(spans);
    parsedTexts.length = 0;
    buildRunGraph(spans);
    const times = new Map<string, number>();
    for (const text of parsedTexts) if (held.has(text)) times.set(text, (times.get(text) ?? 0) + 1);
    return [...times].filter(([text, count]) => count > (held.get(text) ?? 0)).map(([text, count]) => `${count}× ${text.slice(0, 80)}`);
  }

  /**
   * The shared GenAI-loop reader still parses some attributes of these frameworks' spans more
   * than once (their messages are read for the label, the call and the link keys): their traces
   * are held to it per folder until the reader keeps what it parsed in the index, so the day it
   * does, this list must shrink.
   */
  const PARSED_TWICE_YET = ['pydantic-ai', 'google-adk', 'strands', 'mastra'];
  const folderOf = (file: string) => PARSED_TWICE_YET.find((runtime) => file.includes(`${path.sep}runtimes${path.sep}${runtime}${path.sep}`));
  const parsedTwiceYet = (file: string) => folderOf(file) !== undefined;

  it.each(PARSED_TWICE_YET)('%s: (the GenAI-loop reader, for now) some trace has a JSON attribute parsed twice', async (runtime) => {
    const files = sources.filter((source) => folderOf(source.file) === runtime).map((source) => source.file);
    expect(files.length).toBeGreaterThan(0);
    const twice = await Promise.all(files.map(parsedTwice));
    expect(twice.some((texts) => texts.length > 0)).toBe(true);
  });

  it.each(sources.filter((source) => !parsedTwiceYet(source.file)).map((source) => [path.basename(source.file), source.file]))('%s: no JSON attribute is parsed twice', async (_name, file) => {
    expect(await parsedTwice(file)).toEqual([]);
  });
});
