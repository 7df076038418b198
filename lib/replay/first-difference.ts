/** A deep copy through JSON (what a span attribute would hold); undefined stays undefined. */
export const jsonCopy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** The first place two JSON values differ: a path like `messages[2].content[0].toolResponse.output.tempC`. */
export interface Difference {
  path: string;
  recorded: unknown;
  replayed: unknown;
}

const MISSING = '(missing)';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Walks both values in the same order (object keys sorted, so key order never counts) and
 * returns the first difference, or undefined when they are equal as JSON. `undefined` object
 * members count as absent, as in JSON.
 */
export function firstDifference(recorded: unknown, replayed: unknown, path = ''): Difference | undefined {
  if (recorded === replayed) return undefined;
  // Most comparisons are equal: check that without building paths or key lists.
  if (sameJson(recorded, replayed)) return undefined;
  return locate(recorded, replayed, path);
}

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

function locate(recorded: unknown, replayed: unknown, path: string): Difference | undefined {
  if (recorded === replayed) return undefined;
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const length = Math.min(recorded.length, replayed.length);
    for (let i = 0; i < length; i++) {
      const difference = locate(recorded[i], replayed[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    if (recorded.length !== replayed.length) {
      const at = `${path}[${length}]`;
      return { path: at, recorded: length < recorded.length ? recorded[length] : MISSING, replayed: length < replayed.length ? replayed[length] : MISSING };
    }
    return undefined;
  }
  if (isPlainObject(recorded) && isPlainObject(replayed)) {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(replayed)]);
    for (const key of [...keys].sort()) {
      const a = recorded[key];
      const b = replayed[key];
      if (a === undefined && b === undefined) continue;
      if (a === undefined || b === undefined) return { path: join(path, key), recorded: a === undefined ? MISSING : a, replayed: b === undefined ? MISSING : b };
      const difference = locate(a, b, join(path, key));
      if (difference) return difference;
    }
    return undefined;
  }
  if (typeof recorded === 'number' && typeof replayed === 'number' && Number.isNaN(recorded) && Number.isNaN(replayed)) return undefined;
  return { path: path || '(value)', recorded: recorded === undefined ? MISSING : recorded, replayed: replayed === undefined ? MISSING : replayed };
}
