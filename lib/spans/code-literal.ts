/**
 * The one way recorded data enters generated code: as JSON written as a TypeScript literal,
 * on one line when it fits, else expanded with two spaces per level, so recorded data stays
 * readable and diffable.
 *
 * Spans arrive token-less from any exporter or inside a trace file attached to a bug report,
 * so every string in them is hostile until encoded. JSON.stringify leaves some characters raw
 * that are safe in a string literal but not around it; `jsonText` escapes those too, so a
 * literal can never end a comment or a line, close a `<script>`, or hide what the code does.
 */

const WIDTH = 100;

/**
 * Characters JSON.stringify leaves raw that must not reach generated code as they are:
 * U+2028/U+2029 (line terminators: they would end a `//` comment), `<` and `>` (so
 * `</script>` and `<!--` never appear), the other control characters (C1, DEL), format
 * characters such as the bidirectional overrides of "Trojan Source" attacks (Cf), and private
 * or unassigned code points (Co, Cn), which a terminal or an editor may show as something else.
 * JSON text can hold them only inside strings, where `\uXXXX` means the same character.
 */
const UNSAFE = /[\u2028\u2029<>\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu;

const escapeCodeUnits = (character: string) => Array.from({ length: character.length }, (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join('');

/** JSON.stringify, made safe anywhere in a TypeScript file: also in or next to a comment. */
function jsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  // `*/` can only be inside a string too; `\/` is the same `/` in JSON and in TypeScript.
  return text.replace(UNSAFE, escapeCodeUnits).replace(/\*\//g, '*\\/');
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Entries JSON would write (it drops undefined values and functions). */
function entriesOf(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([, inner]) => inner !== undefined && typeof inner !== 'function');
}

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : oneLine(item))).join(', ')}]`;
  if (isRecord(value)) {
    const entries = entriesOf(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, inner]) => `${jsonText(key)}: ${oneLine(inner)}`).join(', ')} }`;
  }
  return jsonText(value);
}

/**
 * `value` (recorded data: strings, numbers, objects, arrays) as a literal written after `prefix`
 * on its line (`prefix` holds the line's indentation and whatever comes before the value, e.g.
 * `    inputJsonSchema: `): one line when it fits. Strings and keys are JSON string literals with
 * every character that could end a comment or a line, or mislead a reader, escaped.
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
      const head = `${inner}${jsonText(key)}: `;
      return `${head}${codeLiteral(item, head)},`;
    })
    .join('\n')}\n${indent}}`;
}
