/**
 * Recorded JSON values as Python literals, for answer snippets of Python frameworks (Google ADK,
 * LangGraph): `True` / `False` / `None`, dicts and lists, strings as JSON writes them — whose
 * escapes (`\n`, `\"`, `\\`, `\uXXXX`) mean the same in a Python string literal — with every
 * character that could end a line or a comment, or mislead a reader, escaped too. Recorded data
 * only ever enters Python code through here, never through a comment.
 */

const UNSAFE = /[\u2028\u2029<>\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu;
const WIDTH = 100;

const escapeCodeUnits = (character: string) => Array.from({ length: character.length }, (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join('');

/** A Python string literal for any string. */
export function pythonString(text: string): string {
  return JSON.stringify(text).replace(UNSAFE, escapeCodeUnits);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function flat(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(flat).join(', ')}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, inner]) => inner !== undefined);
    return `{${entries.map(([key, inner]) => `${pythonString(key)}: ${flat(inner)}`).join(', ')}}`;
  }
  return pythonString(String(value));
}

/**
 * `value` as a Python literal written after `prefix` on its line (its indentation is kept for the
 * lines of an expanded dict or list): on one line when it fits.
 */
export function pythonLiteral(value: unknown, prefix = ''): string {
  const oneLine = flat(value);
  if (prefix.length + oneLine.length <= WIDTH || !(Array.isArray(value) || isRecord(value))) return oneLine;
  const indent = /^ */.exec(prefix)![0];
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries
    .map(([key, item]) => {
      const head = `${inner}${pythonString(key)}: `;
      return `${head}${pythonLiteral(item, head)},`;
    })
    .join('\n')}\n${indent}}`;
}
