/** Small helpers for JSON values read from recorded data (untrusted: any shape may arrive). */

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys, so values compare equal whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) => {
      if (!isObject(inner)) return inner;
      return Object.fromEntries(
        Object.keys(inner)
          .sort()
          .map((key) => [key, inner[key]]),
      );
    }) ?? 'undefined'
  );
}

/** A deep copy through JSON (what a span attribute would hold); undefined stays undefined. */
export const jsonCopy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** Equal as JSON (undefined members count as absent; key order never counts). Allocates nothing. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    count++;
    if (!sameJson(left[key], right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) count--;
  return count === 0;
}
