import { sameJson } from '../spans/json-value';

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
export function firstDifference({ recorded, replayed, path = '' }: { recorded: unknown; replayed: unknown; path?: string }): Difference | undefined {
  if (recorded === replayed) return undefined;
  // Most comparisons are equal: check that without building paths or key lists.
  if (sameJson(recorded, replayed)) return undefined;
  return locate({ recorded, replayed, path });
}

function locate({ recorded, replayed, path }: { recorded: unknown; replayed: unknown; path: string }): Difference | undefined {
  if (recorded === replayed) return undefined;
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const length = Math.min(recorded.length, replayed.length);
    for (let i = 0; i < length; i++) {
      const difference = locate({ recorded: recorded[i], replayed: replayed[i], path: `${path}[${i}]` });
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
      const difference = locate({ recorded: a, replayed: b, path: join(path, key) });
      if (difference) return difference;
    }
    return undefined;
  }
  if (typeof recorded === 'number' && typeof replayed === 'number' && Number.isNaN(recorded) && Number.isNaN(replayed)) return undefined;
  return { path: path || '(value)', recorded: recorded === undefined ? MISSING : recorded, replayed: replayed === undefined ? MISSING : replayed };
}
