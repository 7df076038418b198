import { describe, expect, it } from 'vitest';
import { goProblemLine, goSchemaMismatch, goSchemaProblems } from './go-schema-problems';

/**
 * genkit Go's schema problems in its own words. The lines of the keywords Go tools' schemas use
 * (type, required, additionalProperties, nested paths) are compared with real genkit Go runs in
 * resume-verdicts.capture.test.ts; the others here follow gojsonschema v1.2.0's default locale
 * (locales.go), which genkit Go 1.12.0 pins.
 */
const lines = (schema: unknown, value: unknown, asJsonUnmarshal?: boolean) => goSchemaProblems({ schema, value, asJsonUnmarshal }).map(goProblemLine);
const ANSWER = { type: 'object', additionalProperties: false, properties: { answer: { type: 'string' } }, required: ['answer'] };

describe('goSchemaProblems', () => {
  it('lists every problem, field by dotted path, as genkit Go does; a wrong type is the only problem of its value', () => {
    expect(lines(ANSWER, { answer: 5, x: 1, y: 2 })).toEqual(['(root): Additional property x is not allowed', '(root): Additional property y is not allowed', 'answer: Invalid type. Expected: string, given: integer']);
    expect(lines(ANSWER, { answer: 'Window' })).toEqual([]);
    expect(lines({ type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } } } }, { list: [{ text: 'a' }, { text: 1.5 }] })).toEqual(['list.1.text: Invalid type. Expected: string, given: number']);
    expect(lines({ type: 'object', properties: { c: { type: 'string', enum: ['a', 'b'], minLength: 3 } } }, { c: 5 })).toEqual(['c: Invalid type. Expected: string, given: integer']);
    expect(lines({ type: ['string', 'null'] }, 1)).toEqual(['(root): Invalid type. Expected: [string,null], given: integer']);
    expect(goSchemaMismatch(goSchemaProblems({ schema: ANSWER, value: {} }))).toBe('data did not match expected schema:\n- (root): answer is required');
  });

  it('says each keyword in gojsonschema’s words', () => {
    const schema = {
      type: 'object',
      properties: {
        color: { enum: ['red', 'blue'] },
        kind: { const: 'x' },
        name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
        count: { type: 'integer', minimum: 3, maximum: 10, multipleOf: 2 },
        tags: { type: 'array', minItems: 2, uniqueItems: true },
        either: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
      },
      minProperties: 1,
    };
    expect(lines(schema, { color: 'green', kind: 'y', name: 'A', count: 1, tags: ['a'], either: 1 }).sort()).toEqual(
      [
        'color: color must be one of the following: "red", "blue"',
        'kind: kind does not match: "x"',
        'name: String length must be greater than or equal to 2',
        "name: Does not match pattern '^[a-z]+$'",
        'count: Must be greater than or equal to 3',
        'count: Must be a multiple of 2',
        'tags: Array must have at least 2 items',
        // gojsonschema adds its closest branch's problems too; ajv does not choose one, so only the anyOf line.
        'either: Must validate at least one schema (anyOf)',
      ].sort(),
    );
    expect(lines({ type: 'number', exclusiveMaximum: 1e10 }, 2e10)).toEqual(['(root): Must be less than 1e+10']);
  });

  it('as json.Unmarshal into the Go type: only a wrong type (a missing, unknown or null field is not an error)', () => {
    const confirmation = { type: 'object', additionalProperties: false, properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] };
    expect(lines(confirmation, { other: 1 }, true)).toEqual([]);
    expect(lines(confirmation, { confirmed: null }, true)).toEqual([]);
    expect(lines(confirmation, { confirmed: 'yes' }, true)).toEqual(['confirmed: Invalid type. Expected: boolean, given: string']);
  });
});
