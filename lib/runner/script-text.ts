/**
 * Scenario scripts may refer to what a tool returned, so the scripted answer agrees with a
 * hand-written one: in a turn's text, `{{NAME#REF}}` is the output of tool call NAME#REF in the
 * history the model was sent, and `{{NAME#REF.field.sub}}` one field of it (strings as they
 * are, anything else as JSON). A reference that is not there yet — or a field the output does
 * not have — reads `(no NAME#REF.field)`, so a script mistake shows in the answer instead of
 * failing the run. Runtime-free: each scripted model passes how its history names a tool output.
 */
const REFERENCE = /\{\{\s*([^#{}\s]+)#([^.{}\s]+)((?:\.[^.{}\s]+)*)\s*\}\}/g;

export function fillScriptText(text: string, outputOf: (call: { name: string; ref: string }) => { found: boolean; output?: unknown }): string {
  return text.replace(REFERENCE, (...match: string[]) => {
    const [, name, ref, path] = match;
    const answer = outputOf({ name, ref });
    let value: unknown = answer.found ? answer.output : undefined;
    for (const key of path.split('.').filter(Boolean)) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (!answer.found || value === undefined) return `(no ${name}#${ref}${path})`;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
