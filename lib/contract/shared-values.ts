import type { EndedSpanRecord } from './ended-span';

/**
 * An attribute value sent once per `span-events` message: `{ shared: n }` stands for
 * `values[n]`. OpenTelemetry attribute values are primitives or arrays, never objects, so the
 * object cannot be mistaken for a value of the span.
 */
export interface SharedValueRef {
  shared: number;
}

/** Values shorter than this travel inline: a reference saves little and costs a lookup. */
const MIN_SHARED_LENGTH = 1024;

/**
 * The records with each long attribute value that occurs more than once among them sent
 * once, in `values`. genkit ends every turn's `generate` span at the end of the run, each
 * with the run's whole final response as `genkit:output`: in a 21-turn run 21 copies of the
 * same ~4.5 KB, half of the ~190 KB message that the run's result waits for
 * (bench/capture-overhead.ts). The records are new objects; the spans' attributes are not touched.
 */
export function shareRepeatedValues(records: readonly EndedSpanRecord[]): { ends: EndedSpanRecord[]; values?: string[] } {
  const counts = new Map<string, number>();
  for (const record of records) {
    for (const value of Object.values(record.attributes)) {
      if (typeof value === 'string' && value.length >= MIN_SHARED_LENGTH) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  }
  const indexes = new Map<string, number>();
  const values: string[] = [];
  for (const [value, count] of counts) {
    if (count < 2) continue;
    indexes.set(value, values.length);
    values.push(value);
  }
  if (values.length === 0) return { ends: [...records] };
  const ends = records.map((record) => {
    let attributes: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(record.attributes)) {
      const index = typeof value === 'string' ? indexes.get(value) : undefined;
      if (index === undefined) continue;
      attributes ??= { ...record.attributes };
      attributes[key] = { shared: index } satisfies SharedValueRef;
    }
    return attributes ? { ...record, attributes } : record;
  });
  return { ends, values };
}

/**
 * The records as they were before `shareRepeatedValues`: each `{ shared: n }` attribute is
 * `values[n]` again (one string, shared by the spans that held it). A reference past the
 * table stays as it is (the span then shows it as text, never loses the others).
 */
export function restoreSharedValues(records: readonly EndedSpanRecord[], values: readonly string[] | undefined): EndedSpanRecord[] {
  if (!values || values.length === 0) return [...records];
  return records.map((record) => {
    let attributes: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(record.attributes ?? {})) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const index = (value as Partial<SharedValueRef>).shared;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= values.length) continue;
      attributes ??= { ...record.attributes };
      attributes[key] = values[index];
    }
    return attributes ? { ...record, attributes } : record;
  });
}
