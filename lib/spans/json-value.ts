/** Small helpers for JSON values read from recorded data (untrusted: any shape may arrive). */
import { sortedKeys } from './sorted-keys';

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys, so values compare equal whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  return writePlainJson(value, parts) ? parts.join('') : sortedCopyJson(value);
}

/** The definition: `JSON.stringify` of a copy of every object with its keys sorted. */
function sortedCopyJson(value: unknown): string {
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

/**
 * `sortedCopyJson` for plain JSON data (what `JSON.parse` returns: the values compared are
 * recorded ones), written straight into `parts` without a sorted copy of every object and a
 * replacer call per member: the graph build keys every interrupted request this way. False,
 * with `parts` left half-written, for anything whose JSON the definition decides otherwise or
 * that this does not copy exactly — an object with a `toJSON`, a prototype of its own or a key
 * that starts with a digit (JSON writes array-index keys first), a bigint, a top-level
 * undefined — so the caller falls back to the definition.
 */
function writePlainJson(value: unknown, parts: string[]): boolean {
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      parts.push(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) {
    parts.push('null');
    return true;
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      const item: unknown = value[index];
      // As JSON.stringify does in arrays: a member with no JSON is null.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') parts.push('null');
      else if (!writePlainJson(item, parts)) return false;
    }
    parts.push(']');
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const object = value as Record<string, unknown>;
  if ('toJSON' in object) return false;
  parts.push('{');
  let first = true;
  for (const key of sortedKeys(object)) {
    const code = key.charCodeAt(0);
    if (code >= 0x30 && code <= 0x39) return false;
    const member = object[key];
    // As JSON.stringify does in objects: a member with no JSON is left out.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    parts.push(first ? '' : ',', JSON.stringify(key), ':');
    first = false;
    if (!writePlainJson(member, parts)) return false;
  }
  parts.push('}');
  return true;
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
