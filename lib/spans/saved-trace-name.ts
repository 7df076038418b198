/**
 * Names of saved trace files: the one rule a name from a request must keep to stay inside the
 * saved folder, and the valid name a page suggests. Free of Node APIs, so pages use the same rule.
 */
import { LoopscopeError } from '../errors';

export const MAX_NAME_LENGTH = 100;

/**
 * The file name a saved-trace name maps to. Only `[A-Za-z0-9._-]`, 1–100 characters, no
 * leading dot and no `..`, so a name from a request can never leave the saved folder.
 * `.json` is appended unless the name already ends in `.json` (or `.jsonl` when reading).
 * @throws LoopscopeError INVALID_ARGUMENT
 */
export function savedTraceFileName(name: string, options: { allowJsonl?: boolean } = {}): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new LoopscopeError('INVALID_ARGUMENT', `A saved trace name must be 1 to ${MAX_NAME_LENGTH} characters long.`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.includes('..')) {
    throw new LoopscopeError(
      'INVALID_ARGUMENT',
      `Invalid saved trace name ${JSON.stringify(name)}: use only letters, digits, ".", "_" and "-", without ".." or folders.`,
    );
  }
  if (name.startsWith('.')) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid saved trace name ${JSON.stringify(name)}: it must not start with a dot.`);
  if (/\.json$/i.test(name) || (options.allowJsonl && /\.jsonl$/i.test(name))) return name;
  return `${name}.json`;
}

/**
 * A valid saved-trace name made from any text (a run's label such as `replay of bug-1.json`, a
 * date): characters outside the rule become dashes, runs of them one dash, no leading dot or
 * dash, at most `MAX_NAME_LENGTH` characters. Always accepted by `savedTraceFileName`.
 */
export function suggestSavedName(text: string): string {
  const name = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/[.-]+$/, '');
  return name.length > 0 ? name : 'trace';
}
