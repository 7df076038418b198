import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pythonLiteral, pythonString } from './python-literal';
import { PYTHON_CLASS_KEY, readPythonRepr } from './python-repr';

/** What Python itself reads from a literal (`ast.literal_eval`), as JSON: the literal says what it should. */
function pythonReads(literal: string): unknown {
  const script = 'import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))';
  return JSON.parse(execFileSync(process.env.LOOPSCOPE_PYTHON ?? 'python3', ['-c', script], { input: literal, encoding: 'utf8' }));
}

describe('Python values', () => {
  it('reads a GraphInterrupt message: the Interrupt call, its value, id and response_schema', () => {
    const text =
      "(Interrupt(value={'action_request': {'action': 'book_table', 'args': {'restaurant': 'Chez Loop', 'party': 2}}, 'description': \"it's late\"}, id='d1420f1edcede70cb6fa1e9cbc130a4c', response_schema={'properties': {'type': {'const': 'approve'}}, 'required': ['type'], 'additionalProperties': True, 'x': None}),)";
    const read = readPythonRepr(text);
    expect(read).toEqual({
      ok: true,
      value: [
        {
          [PYTHON_CLASS_KEY]: 'Interrupt',
          value: { action_request: { action: 'book_table', args: { restaurant: 'Chez Loop', party: 2 } }, description: "it's late" },
          id: 'd1420f1edcede70cb6fa1e9cbc130a4c',
          response_schema: { properties: { type: { const: 'approve' } }, required: ['type'], additionalProperties: true, x: null },
        },
      ],
    });
  });

  it('escapes, tuples, sets, nested calls, opaque objects; a cut repr is a problem in words, never a throw', () => {
    expect(readPythonRepr("'a\\nb\\x41\\u00e9\\\\'")).toEqual({ ok: true, value: 'a\nbAé\\' });
    expect(readPythonRepr('(1, 2.5, -3, {4, 5}, [])')).toEqual({ ok: true, value: [1, 2.5, -3, [4, 5], []] });
    expect(readPythonRepr("Send(node='tools', arg=ToolCall(id='c1'))")).toEqual({ ok: true, value: { [PYTHON_CLASS_KEY]: 'Send', node: 'tools', arg: { [PYTHON_CLASS_KEY]: 'ToolCall', id: 'c1' } } });
    expect(readPythonRepr('[<object at 0x7f>]')).toEqual({ ok: true, value: ['<object at 0x7f>'] });
    expect(readPythonRepr("(Interrupt(value={'a': 'unterminated")).toMatchObject({ ok: false, problem: expect.stringContaining('unterminated') });
    expect(readPythonRepr('[' .repeat(100))).toMatchObject({ ok: false, problem: expect.stringContaining('nested too deeply') });
  });

  it('writes literals Python reads back as the same values, hostile strings included', () => {
    const value = { text: 'line\nbreak "quoted" \\ back', bidi: 'a\u202eb', separator: 'x\u2028y', script: '</script><!--', nested: [true, false, null, 1.5, { 'key\'s': [] }], '__proto__x': 'ok' };
    const literal = pythonLiteral(value);
    expect(literal).not.toMatch(/[\u2028\u202e<>]/u);
    expect(pythonReads(literal)).toEqual(value);
    // A long value is expanded over lines, and still reads the same.
    const long = { items: Array.from({ length: 12 }, (_, index) => ({ index, name: `item number ${index}` })) };
    expect(pythonLiteral(long, '    resume=').split('\n').length).toBeGreaterThan(3);
    expect(pythonReads(pythonLiteral(long, '    resume='))).toEqual(long);
    expect(pythonString("it's")).toBe('"it\'s"');
  });
});
