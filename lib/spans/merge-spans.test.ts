import { describe, expect, it } from 'vitest';
import { mergeSpans } from './merge-spans';
import type { Span } from './span';
import { buildSpan, type SpanOverrides } from './testing/build-span';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

function span(spanId: string, overrides: SpanOverrides = {}): Span {
  return buildSpan({ traceId: TRACE_ID, spanId, name: `span-${spanId}`, startTimeUnixNano: '1000', endTimeUnixNano: '2000', ...overrides });
}

describe('mergeSpans', () => {
  const open = span('aaaaaaaaaaaaaaaa', { endTimeUnixNano: undefined, name: 'open' });
  const ended = span('aaaaaaaaaaaaaaaa', { name: 'ended' });

  it('appends new spans and replaces an open span by its ended version in place', () => {
    const other = span('bbbbbbbbbbbbbbbb');
    const merged = mergeSpans([open, other], [ended, span('cccccccccccccccc')]);
    expect(merged.map((item) => item.name)).toEqual(['ended', 'span-bbbbbbbbbbbbbbbb', 'span-cccccccccccccccc']);
  });

  it('never replaces an ended span by an open one', () => {
    expect(mergeSpans([ended], [open])).toEqual([ended]);
    // Also within one batch, whatever the arrival order.
    expect(mergeSpans([], [ended, open])).toEqual([ended]);
  });

  it('lets a later ended version replace an earlier ended one, and a later open one replace an open one', () => {
    const endedAgain = span('aaaaaaaaaaaaaaaa', { name: 'ended again' });
    expect(mergeSpans([ended], [endedAgain])[0].name).toBe('ended again');
    const openAgain = span('aaaaaaaaaaaaaaaa', { endTimeUnixNano: undefined, name: 'open again' });
    expect(mergeSpans([open], [openAgain])[0].name).toBe('open again');
  });

  it('keys by trace id and span id together', () => {
    const sameSpanIdOtherTrace = span('aaaaaaaaaaaaaaaa', { traceId: 'cccccccccccccccccccccccccccccccc' });
    expect(mergeSpans([ended], [sameSpanIdOtherTrace])).toHaveLength(2);
  });

  it('does not mutate its inputs', () => {
    const existing = [open];
    const incoming = [ended];
    mergeSpans(existing, incoming);
    expect(existing).toEqual([open]);
    expect(incoming).toEqual([ended]);
  });
});
