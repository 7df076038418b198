import { describe, expect, it } from 'vitest';
import { exampleFromSchema } from './example-from-schema';

describe('exampleFromSchema', () => {
  it('fills required properties of an object, by type', () => {
    const schema = {
      type: 'object',
      properties: { to: { type: 'string' }, amountUsd: { type: 'number', minimum: 1 }, note: { type: 'string' }, urgent: { type: 'boolean' } },
      required: ['to', 'amountUsd', 'urgent'],
    };
    expect(exampleFromSchema(schema)).toEqual({ to: '', amountUsd: 1, urgent: false });
  });

  it('uses enums, defaults, the first union member, and stops on unknown shapes', () => {
    expect(exampleFromSchema({ type: 'string', enum: ['done', 'rejected'] })).toBe('done');
    expect(exampleFromSchema({ type: 'number', default: 7 })).toBe(7);
    expect(exampleFromSchema({ anyOf: [{ type: 'array' }, { type: 'string' }] })).toEqual([]);
    expect(exampleFromSchema({ type: ['null', 'integer'] })).toBe(0);
    expect(exampleFromSchema(undefined)).toBeNull();
    expect(exampleFromSchema({ type: 'mystery' })).toBeNull();
  });
});
