import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerEvent, SpanStartEvent } from './runner-protocol';
import { RunnerSpanOutbox } from './runner-span-outbox';
import { decodeSpanBatch, spanEventsOf, type SpanSpool } from './span-batch-frames';

const TRACE = 'a'.repeat(32);
const owner = { runId: 'run-1', requestId: 'run-1:1' };

function start(spanId: string, name: string): SpanStartEvent {
  return { ...owner, traceId: TRACE, spanId, name, attributes: { 'genkit:type': 'action' }, startTimeUnixNano: '1000' };
}

/** Just what the outbox reads of an ended SDK span. */
function ended(spanId: string): ReadableSpan {
  return {
    spanContext: () => ({ traceId: TRACE, spanId, traceFlags: 1 }),
    name: 'model',
    kind: 0,
    startTime: [1, 0],
    endTime: [2, 0],
    attributes: { 'genkit:output': '{}' },
    events: [],
    links: [],
    status: { code: 1 },
    resource: { attributes: { 'service.name': 'loopscope-runner' } },
    instrumentationScope: { name: 'genkit-tracer' },
  } as unknown as ReadableSpan;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
let sent: RunnerEvent[] = [];
afterEach(() => {
  sent = [];
});

/** An outbox whose spool keeps its frames in memory, and what it sends in `sent`. */
function spooledOutbox(): { frames: Uint8Array[]; outbox: RunnerSpanOutbox } {
  const frames: Uint8Array[] = [];
  const spool: SpanSpool = { write: (payload) => void frames.push(payload), clear: () => void frames.splice(0) };
  return { frames, outbox: new RunnerSpanOutbox((event) => sent.push(event), spool) };
}

describe('RunnerSpanOutbox with a spool', () => {
  it('writes what is queued to the spool before tools/ code runs, and sends the same bytes with the tick’s one message', async () => {
    const { frames, outbox } = spooledOutbox();
    outbox.queueStart(start('1'.repeat(16), 'generate'), false);
    outbox.queueEnd(ended('2'.repeat(16)), owner);
    outbox.queueStart(start('3'.repeat(16), 'tool'), true);
    // In the spool at once, before the tool could run; nothing woke the server yet.
    expect(frames.map(decodeSpanBatch)).toEqual([
      { starts: [expect.objectContaining({ spanId: '1'.repeat(16) }), expect.objectContaining({ spanId: '3'.repeat(16) })], ends: [expect.objectContaining({ spanId: '2'.repeat(16), requestId: 'run-1:1' })] },
    ]);
    expect(sent).toEqual([]);
    // A second action start spools only what is new.
    outbox.queueEnd(ended('4'.repeat(16)), owner);
    outbox.queueStart(start('5'.repeat(16), 'model'), true);
    expect(decodeSpanBatch(frames[1])).toEqual({ starts: [expect.objectContaining({ spanId: '5'.repeat(16) })], ends: [expect.objectContaining({ spanId: '4'.repeat(16) })] });
    // What ends after the last action start is not in the spool: it goes as it is.
    outbox.queueEnd(ended('6'.repeat(16)), owner);
    await tick();
    expect(sent).toHaveLength(1);
    const [message] = sent as Extract<RunnerEvent, { type: 'span-events' }>[];
    // The spool's bytes themselves, not encoded again.
    expect(message.spooled).toEqual(frames);
    expect(message.spooled?.[0]).toBe(frames[0]);
    expect(message.ends.map((record) => record.spanId)).toEqual(['6'.repeat(16)]);
    const events = spanEventsOf(message);
    expect(events.starts.map((event) => event.spanId)).toEqual(['1', '3', '5'].map((digit) => digit.repeat(16)));
    expect(events.ends.map((record) => record.spanId)).toEqual(['2', '4', '6'].map((digit) => digit.repeat(16)));
    expect(events.problems).toEqual([]);
    outbox.clearSpool();
    expect(frames).toEqual([]);
  });

  it('sends spooled batches at once once they fill a pipe’s buffer (64 KiB), not only at the tick', () => {
    const frames: Uint8Array[] = [];
    const outbox = new RunnerSpanOutbox((event) => sent.push(event), { write: (payload) => void frames.push(payload), clear: () => undefined });
    const big = (spanId: string) => {
      const span = ended(spanId);
      return { ...span, spanContext: span.spanContext, attributes: { 'genkit:output': 'x'.repeat(30_000) } } as unknown as ReadableSpan;
    };
    // A loop that never yields to the event loop: two tool rounds of ~30 KB each stay queued…
    outbox.queueEnd(big('1'.repeat(16)), owner);
    outbox.queueStart(start('2'.repeat(16), 'tool'), true);
    outbox.queueEnd(big('3'.repeat(16)), owner);
    outbox.queueStart(start('4'.repeat(16), 'tool'), true);
    expect(sent).toEqual([]);
    // …the third passes 64 KiB: all three go now, as the spool's bytes.
    outbox.queueEnd(big('5'.repeat(16)), owner);
    outbox.queueStart(start('6'.repeat(16), 'tool'), true);
    expect(frames).toHaveLength(3);
    expect(sent).toHaveLength(1);
    const [message] = sent as Extract<RunnerEvent, { type: 'span-events' }>[];
    expect(message.spooled).toEqual(frames);
    expect(spanEventsOf(message).ends.map((record) => record.spanId[0])).toEqual(['1', '3', '5']);
  });

  it('sends at once over IPC when the spool cannot be written, and without a spool', () => {
    const broken: SpanSpool = {
      write: () => {
        throw new Error('ENOSPC');
      },
      clear: () => undefined,
    };
    for (const spool of [broken, undefined]) {
      sent = [];
      const outbox = new RunnerSpanOutbox((event) => sent.push(event), spool);
      outbox.queueEnd(ended('2'.repeat(16)), owner);
      outbox.queueStart(start('3'.repeat(16), 'tool'), true);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ type: 'span-events', starts: [{ spanId: '3'.repeat(16) }], ends: [{ spanId: '2'.repeat(16) }] });
    }
  });
});

describe('RunnerSpanOutbox, what it leaves out and what it puts behind', () => {
  it('sends no start for a span that ended before its start left the process, and keeps the starts that left', async () => {
    const { frames, outbox } = spooledOutbox();
    outbox.queueStart(start('1'.repeat(16), 'generate'), false);
    outbox.queueStart(start('2'.repeat(16), 'model'), false);
    outbox.queueEnd(ended('2'.repeat(16)), owner);
    outbox.queueStart(start('3'.repeat(16), 'tool'), true);
    // The model's start is gone (its end is there); the generate's and the tool's, still open, are kept.
    expect(decodeSpanBatch(frames[0]).starts.map((event) => event.spanId)).toEqual(['1'.repeat(16), '3'.repeat(16)]);
    // A span whose start is in the spool already ends: its end goes, the start stays where it is.
    outbox.queueEnd(ended('3'.repeat(16)), owner);
    await tick();
    const { starts, ends } = spanEventsOf(sent[0] as Extract<RunnerEvent, { type: 'span-events' }>);
    expect(starts.map((event) => event.spanId)).toEqual(['1'.repeat(16), '3'.repeat(16)]);
    expect(ends.map((record) => record.spanId)).toEqual(['2'.repeat(16), '3'.repeat(16)]);
  });

  it('sends a request’s result behind its last spans in one message, and alone when nothing is queued', () => {
    const outbox = new RunnerSpanOutbox((event) => sent.push(event));
    const result: RunnerEvent = { type: 'generate-result', requestId: 'run-1:1', runId: 'run-1', traceIds: [TRACE] };
    outbox.queueEnd(ended('4'.repeat(16)), owner);
    outbox.flush(result);
    expect(sent).toEqual([expect.objectContaining({ type: 'span-events', ends: [expect.objectContaining({ spanId: '4'.repeat(16) })], then: result })]);
    outbox.flush(result);
    expect(sent[1]).toEqual(result);
  });
});
