/**
 * Reads a Python `repr()` that a Python framework left in a span (LangGraph's `GraphInterrupt`
 * exception message: `(Interrupt(value={'a': 1}, id='…', response_schema={…}),)`) as JSON
 * values: strings ('…', "…", with their escapes), numbers, `True` / `False` / `None`, dicts,
 * lists, tuples (as lists), sets (as lists), and calls of a class with keyword or positional
 * arguments (`Interrupt(value=…, id=…)` as `{__class__: "Interrupt", value: …, id: …}`; positional
 * ones under `args`). Anything else (an object's default repr `<foo at 0x…>`) is kept as its text.
 * Never throws: a repr it cannot read is a problem in words.
 */

export type PythonReprResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** The key a class call's name is kept under. */
export const PYTHON_CLASS_KEY = '__class__';

const MAX_DEPTH = 64;

class Reader {
  position = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at character ${this.position}`);
  }

  skipSpace(): void {
    while (this.position < this.text.length && /\s/.test(this.text[this.position])) this.position += 1;
  }

  peek(): string {
    this.skipSpace();
    return this.text[this.position] ?? '';
  }

  expect(character: string): void {
    if (this.peek() !== character) this.fail(`expected "${character}"`);
    this.position += 1;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    const next = this.peek();
    if (next === '{') return this.dict(depth);
    if (next === '[') return this.sequence({ close: ']', depth });
    if (next === '(') return this.sequence({ close: ')', depth });
    if (next === "'" || next === '"') return this.string();
    if (next === '<') return this.opaque();
    if (/[-+0-9.]/.test(next)) return this.number();
    if (/[A-Za-z_]/.test(next)) return this.name(depth);
    return this.fail(next === '' ? 'unexpected end' : `unexpected "${next}"`);
  }

  dict(depth: number): unknown {
    this.expect('{');
    const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const items: unknown[] = [];
    let isSet = false;
    while (this.peek() !== '}') {
      const key = this.value(depth + 1);
      if (this.peek() === ':') {
        this.position += 1;
        result[typeof key === 'string' ? key : JSON.stringify(key)] = this.value(depth + 1);
      } else {
        isSet = true;
        items.push(key);
      }
      if (this.peek() === ',') this.position += 1;
      else break;
    }
    this.expect('}');
    return isSet ? items : { ...result };
  }

  sequence({ close, depth }: { close: string; depth: number }): unknown[] {
    this.position += 1;
    const items: unknown[] = [];
    while (this.peek() !== close) {
      items.push(this.value(depth + 1));
      if (this.peek() === ',') this.position += 1;
      else break;
    }
    this.expect(close);
    return items;
  }

  string(): string {
    let quote = this.text[this.position];
    // Triple-quoted strings do not occur in a repr of data; one quote character opens and closes.
    this.position += 1;
    let result = '';
    while (this.position < this.text.length) {
      const character = this.text[this.position];
      if (character === quote) {
        this.position += 1;
        // Adjacent literals join ('a' 'b'), as Python reads them.
        const after = this.peek();
        if (after === "'" || after === '"') {
          quote = after;
          this.position += 1;
          continue;
        }
        return result;
      }
      if (character !== '\\') {
        result += character;
        this.position += 1;
        continue;
      }
      const escaped = this.text[this.position + 1];
      this.position += 2;
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\u0007', b: '\b', f: '\f', v: '\v', '0': '\0' };
      if (escaped in simple) result += simple[escaped];
      else if (escaped === 'x' || escaped === 'u' || escaped === 'U') {
        const length = escaped === 'x' ? 2 : escaped === 'u' ? 4 : 8;
        const hex = this.text.slice(this.position, this.position + length);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) this.fail('a bad escape');
        result += String.fromCodePoint(Number.parseInt(hex, 16));
        this.position += length;
      } else result += `\\${escaped ?? ''}`;
    }
    return this.fail('an unterminated string');
  }

  number(): number | string {
    const match = /^[-+]?(\d[\d_]*\.?\d*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?|inf|nan)/i.exec(this.text.slice(this.position));
    if (!match) return this.fail('a bad number');
    this.position += match[0].length;
    const value = Number(match[0].replaceAll('_', ''));
    return Number.isFinite(value) ? value : match[0];
  }

  /** `<object at 0x…>`: kept as its text. */
  opaque(): string {
    const end = this.text.indexOf('>', this.position);
    if (end < 0) this.fail('an unterminated <…>');
    const text = this.text.slice(this.position, end + 1);
    this.position = end + 1;
    return text;
  }

  name(depth: number): unknown {
    const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.position)) as RegExpExecArray;
    this.position += match[0].length;
    const word = match[0];
    if (this.peek() !== '(') {
      if (word === 'True') return true;
      if (word === 'False') return false;
      if (word === 'None') return null;
      return word;
    }
    this.position += 1;
    const call: Record<string, unknown> = { [PYTHON_CLASS_KEY]: word };
    const positional: unknown[] = [];
    while (this.peek() !== ')') {
      const keyword = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(this.text.slice(this.position));
      if (keyword) {
        this.position += keyword[0].length;
        call[keyword[1]] = this.value(depth + 1);
      } else positional.push(this.value(depth + 1));
      if (this.peek() === ',') this.position += 1;
      else break;
    }
    this.expect(')');
    if (positional.length > 0) call.args = positional;
    return call;
  }
}

/** The value of a Python repr (see the file's comment), or the problem in words. */
export function readPythonRepr(text: string): PythonReprResult {
  const reader = new Reader(text);
  try {
    const value = reader.value(0);
    if (reader.peek() !== '') return { ok: false, problem: `text after the value at character ${reader.position}` };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}
