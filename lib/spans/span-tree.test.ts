import { describe, expect, it } from 'vitest';
import { buildSpanTree } from './span-tree';
import { buildSpan } from './testing/build-span';

describe('buildSpanTree', () => {
  it('rows carry bounded labels and error messages, as the trace lists do (issue 36); the spans keep the whole', () => {
    const name = 'x'.repeat(2_000_000);
    const span = buildSpan({ name, status: { code: 2, message: 'e'.repeat(50_000) } });
    const [row] = buildSpanTree([span]);
    expect(row.label).toBe(`${'x'.repeat(200)}… [2000000 characters in all]`);
    expect(row.errorMessage).toBe(`${'e'.repeat(1_000)}… [50000 characters in all]`);
    expect(span.name).toBe(name);
  });
});
