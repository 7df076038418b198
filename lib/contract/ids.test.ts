import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../errors';
import { SpanIdSchema, SpanKeySchema, TraceIdSchema, spanIdFrom, traceIdFrom } from './ids';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

function message(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.success ? undefined : result.error?.issues[0].message;
}

describe('ids', () => {
  it('accepts lowercase hex ids of the right length', () => {
    expect(TraceIdSchema.parse(TRACE)).toBe(TRACE);
    expect(SpanIdSchema.parse(SPAN)).toBe(SPAN);
    expect(SpanKeySchema.parse(`${TRACE}:${SPAN}`)).toBe(`${TRACE}:${SPAN}`);
  });

  it('refuses uppercase, short, long and non-hex ids, saying what an id is', () => {
    for (const bad of [TRACE.toUpperCase(), TRACE.slice(1), `${TRACE}0`, `${TRACE.slice(1)}g`, '']) {
      expect(message(TraceIdSchema.safeParse(bad))).toBe('a trace id is 32 lowercase hex characters');
    }
    expect(message(SpanIdSchema.safeParse(`${SPAN}0`))).toBe('a span id is 16 lowercase hex characters');
    expect(message(SpanKeySchema.safeParse(`${TRACE}/${SPAN}`))).toBe('a recorded call is named traceId:spanId (32 and 16 lowercase hex characters)');
  });

  it('checks ids from URL segments with a LoopscopeError that quotes the value', () => {
    expect(traceIdFrom(TRACE)).toBe(TRACE);
    expect(spanIdFrom(SPAN)).toBe(SPAN);
    for (const [check, value, words] of [
      [traceIdFrom, '../../etc/passwd', '"../../etc/passwd" is not a trace id (32 lowercase hex characters).'],
      [spanIdFrom, 'zz', '"zz" is not a span id (16 lowercase hex characters).'],
    ] as const) {
      let thrown: unknown;
      try {
        check(value);
      } catch (error) {
        thrown = error;
      }
      expect(LoopscopeError.isInstance(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
      expect((thrown as Error).message).toBe(words);
    }
  });
});
