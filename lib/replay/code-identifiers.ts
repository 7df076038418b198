/**
 * Identifiers for generated code made from recorded names (a tool name, a module file name):
 * only ASCII letters and digits survive, camel-cased (`lookup-order` → `lookupOrder`), and each
 * is unique in the file, so no name — `a\nb`, `` `${x}` ``, `play` next to a `playTool` helper
 * — can break the code or shadow another binding. The real name stays in a string literal.
 */

/** One file's identifiers: `reserved` are the names the file itself defines. */
export class CodeIdentifiers {
  private readonly taken: Set<string>;
  private readonly byKey = new Map<string, string>();

  constructor(reserved: readonly string[]) {
    this.taken = new Set(reserved);
  }

  /**
   * The identifier for `name` with `suffix` (non-empty: `Tool`, `Tools`): the same one each time it is
   * asked for the same name and suffix, a new one (`lookupOrderTool2`) when another name
   * already took it.
   */
  for(name: string, suffix: string): string {
    const key = `${suffix}\u0000${name}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
    const camel = words.map((word, index) => (index === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
    // An identifier cannot start with a digit; the suffix keeps it off every reserved word.
    const base = `${camel === '' || /^[0-9]/.test(camel) ? `_${camel}` : camel}${suffix}`;
    let identifier = base;
    for (let count = 2; this.taken.has(identifier); count++) identifier = `${base}${count}`;
    this.taken.add(identifier);
    this.byKey.set(key, identifier);
    return identifier;
  }
}
