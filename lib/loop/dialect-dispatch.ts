import type { Span } from '../spans/span';
import type { RuntimeDialect } from './runtime-dialect';

/** The dialect that claims a span (the first in order whose `claims` says so), or undefined when none does. */
export type DialectDispatch = (span: Span) => RuntimeDialect | undefined;

/** Bits of a candidate set: one per dialect, in their order. */
const MAX_BITS = 30;

/**
 * The dispatcher of a dialect list: the same answer as asking each dialect's `claims` in order,
 * but `claims` is asked only of the dialects whose `claimedBy` the span meets (its instrumentation
 * scope, one of the attributes, its name), found by one lookup per registered scope, attribute
 * and name — not every dialect's own attribute scans, for every span, as runtimes are added.
 * A dialect that declares no `claimedBy` is asked of every span. Built once per list.
 */
export function dialectDispatch(dialects: readonly RuntimeDialect[]): DialectDispatch {
  if (dialects.length > MAX_BITS) return (span) => dialects.find((dialect) => dialect.claims(span));
  let everySpan = 0;
  const byScope = new Map<string, number>();
  const byName = new Map<string, number>();
  const byAttribute = new Map<string, number>();
  const add = ({ map, keys, bit }: { map: Map<string, number>; keys: readonly string[] | undefined; bit: number }) => {
    for (const key of keys ?? []) map.set(key, (map.get(key) ?? 0) | bit);
  };
  dialects.forEach((dialect, position) => {
    const bit = 1 << position;
    const { claimedBy } = dialect;
    if (!claimedBy) {
      everySpan |= bit;
      return;
    }
    add({ map: byScope, keys: claimedBy.scopes, bit });
    add({ map: byName, keys: claimedBy.spanNames, bit });
    add({ map: byAttribute, keys: claimedBy.attributes, bit });
  });
  const attributes = [...byAttribute];
  return (span) => {
    let candidates = everySpan | (byName.get(span.name) ?? 0);
    if (byScope.size > 0) candidates |= byScope.get(span.scope.name) ?? 0;
    for (const [key, bits] of attributes) if ((candidates & bits) !== bits && span.attributes[key] !== undefined) candidates |= bits;
    for (let position = 0; candidates !== 0; position++, candidates >>>= 1) {
      if ((candidates & 1) !== 0 && dialects[position].claims(span)) return dialects[position];
    }
    return undefined;
  };
}
