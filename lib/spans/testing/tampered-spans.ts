import type { Span } from '../span';

/**
 * A copy of the spans with one attribute of the first span matching `where` rewritten: a
 * recording tampered with, for the replay tests that must see it diverge. Throws when no span
 * has the attribute or the change leaves it as it was, so a test never passes on an untouched copy.
 */
export function tamperedSpans({ spans, where, attribute, change }: { spans: readonly Span[]; where: (span: Span) => boolean; attribute: string; change: (value: string) => string }): Span[] {
  const copy = structuredClone(spans) as Span[];
  const span = copy.find(where);
  if (!span || typeof span.attributes[attribute] !== 'string') throw new Error(`no span with ${attribute}`);
  const before = span.attributes[attribute] as string;
  span.attributes[attribute] = change(before);
  if (span.attributes[attribute] === before) throw new Error('the change changed nothing');
  return copy;
}
