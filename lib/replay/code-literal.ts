/**
 * JSON written as a TypeScript literal for generated code: on one line when it fits, else
 * expanded with two spaces per level, so recorded data stays readable and diffable.
 */

const WIDTH = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Entries JSON would write (it drops undefined values and functions). */
function entriesOf(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([, inner]) => inner !== undefined && typeof inner !== 'function');
}

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : oneLine(item))).join(', ')}]`;
  if (isRecord(value)) {
    const entries = entriesOf(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, inner]) => `${JSON.stringify(key)}: ${oneLine(inner)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * `value` as a literal written after `prefix` on its line (`prefix` holds the line's indentation
 * and whatever comes before the value, e.g. `    inputJsonSchema: `): one line when it fits.
 */
export function codeLiteral(value: unknown, prefix = ''): string {
  const indent = /^ */.exec(prefix)![0];
  const flat = oneLine(value);
  if (prefix.length + flat.length <= WIDTH || !(Array.isArray(value) || isRecord(value))) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${codeLiteral(item === undefined ? null : item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = entriesOf(value);
  return `{\n${entries
    .map(([key, item]) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      return `${head}${codeLiteral(item, head)},`;
    })
    .join('\n')}\n${indent}}`;
}

/** Text safe inside a block comment. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/');
}
