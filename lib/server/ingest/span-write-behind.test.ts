import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSpan } from '../../spans/testing/build-span';
import type { Span } from '../../spans/span';
import { SpanWriteBehind } from './span-write-behind';

const spansNamed = (...names: string[]): Span[] => names.map((name) => buildSpan({ name }));

/** A write that takes `ms` of (fake) time and records what it was given. */
function slowWrites(ms: number) {
  const batches: string[][] = [];
  const write = async (spans: Span[]) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    batches.push(spans.map((span) => span.name));
  };
  return { batches, write };
}

describe('SpanWriteBehind', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a burst of batches as one, once it is quiet', async () => {
    const { batches, write } = slowWrites(0);
    const behind = new SpanWriteBehind({ write, quietMs: 10, maxDelayMs: 50 });
    behind.add(spansNamed('a'));
    await vi.advanceTimersByTimeAsync(6);
    behind.add(spansNamed('b', 'c'));
    await vi.advanceTimersByTimeAsync(6);
    expect(batches).toEqual([]);
    expect(behind.waiting).toBe(3);
    await vi.advanceTimersByTimeAsync(5);
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(behind.waiting).toBe(0);
  });

  it('writes a stream that never goes quiet at most maxDelayMs after its first batch', async () => {
    const { batches, write } = slowWrites(0);
    const behind = new SpanWriteBehind({ write, quietMs: 10, maxDelayMs: 50 });
    for (let tick = 0; tick < 12; tick++) {
      behind.add(spansNamed(`s${tick}`));
      await vi.advanceTimersByTimeAsync(5);
    }
    // Batches at 0, 5, … 45 ms went out together at 50 ms; 50 and 55 wait for the next write.
    expect(batches).toEqual([Array.from({ length: 10 }, (_, index) => `s${index}`)]);
    expect(behind.waiting).toBe(2);
  });

  it('flush hands what waits to the write synchronously and resolves only when every write started before it has ended', async () => {
    const handed: string[][] = [];
    const { batches, write } = slowWrites(30);
    const behind = new SpanWriteBehind({ write: (spans) => (handed.push(spans.map((span) => span.name)), write(spans)), quietMs: 10, maxDelayMs: 50 });
    behind.add(spansNamed('first'));
    await vi.advanceTimersByTimeAsync(12); // the first write started at 10 ms (quiet): it ends at 40
    behind.add(spansNamed('second'));
    let flushed = false;
    void behind.flush().then(() => (flushed = true));
    // Handed over in the same tick, while the first write is still going: the store orders them.
    expect(handed).toEqual([['first'], ['second']]);
    expect(behind.waiting).toBe(0);
    await vi.advanceTimersByTimeAsync(29); // 41 ms: the first has ended, the second (started at 12) has not
    expect([batches, flushed]).toEqual([[['first']], false]);
    await vi.advanceTimersByTimeAsync(1); // 42 ms
    expect([batches, flushed]).toEqual([[['first'], ['second']], true]);
  });

  it('a failed write is reported with its spans; the next one goes on, and flush never rejects', async () => {
    const failures: string[][] = [];
    const written: string[][] = [];
    let fail = true;
    const behind = new SpanWriteBehind({
      write: async (spans) => {
        if (fail) throw new Error('disk full');
        written.push(spans.map((span) => span.name));
      },
      onError: (error, spans) => failures.push([(error as Error).message, ...spans.map((span) => span.name)]),
    });
    behind.add(spansNamed('lost'));
    await expect(behind.flush()).resolves.toBeUndefined();
    fail = false;
    behind.add(spansNamed('kept'));
    await behind.flush();
    expect(failures).toEqual([['disk full', 'lost']]);
    expect(written).toEqual([['kept']]);
  });

  it('a burst of several traces that the store refuses is retried trace by trace: only the refused trace is lost', async () => {
    const failures: string[][] = [];
    const written: string[][] = [];
    const behind = new SpanWriteBehind({
      write: async (spans) => {
        if (spans.some((span) => span.name === 'corrupt')) throw new Error('The captured trace is corrupt');
        written.push(spans.map((span) => span.name));
      },
      onError: (error, spans) => failures.push([(error as Error).message, ...spans.map((span) => span.name)]),
    });
    const good = buildSpan({ name: 'good', traceId: 'a'.repeat(32) });
    const bad = buildSpan({ name: 'corrupt', traceId: 'b'.repeat(32) });
    const other = buildSpan({ name: 'other', traceId: 'a'.repeat(32), spanId: '2'.repeat(16) });
    behind.add([good, bad, other]);
    await behind.flush();
    expect(written).toEqual([['good', 'other']]);
    expect(failures).toEqual([['The captured trace is corrupt', 'corrupt']]);
  });

  it('waits twice as long as its last write took when that is longer than maxDelayMs (a slow store is not asked to rewrite a trace more often than it can)', async () => {
    const { batches, write } = slowWrites(100);
    const behind = new SpanWriteBehind({ write, quietMs: 10, maxDelayMs: 50 });
    behind.add(spansNamed('a'));
    const first = behind.flush();
    await vi.advanceTimersByTimeAsync(100);
    await first;
    expect(batches).toEqual([['a']]);
    for (let tick = 0; tick < 30; tick++) {
      behind.add(spansNamed(`s${tick}`));
      await vi.advanceTimersByTimeAsync(5);
    }
    // 150 ms of batches every 5 ms: no write started before 200 ms (2 × 100 ms).
    expect(batches).toEqual([['a']]);
    await vi.advanceTimersByTimeAsync(50 + 100);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toHaveLength(30);
  });
});
