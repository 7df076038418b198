import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunnerEvent, SpanStartEvent } from './runner-protocol';
import { RunnerSpanOutbox } from './runner-span-outbox';
import { openSpoolFile, readSpoolFrames, readSpoolRange, spanEventsOf, type SpanSpool } from './span-batch-frames';

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
const folder = mkdtempSync(path.join(os.tmpdir(), 'loopscope-outbox-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let spoolCount = 0;

/** An outbox with a real spool file, what it sends in `sent`, and the messages' events as the server reads them. */
function spooledOutbox(wrap: (spool: SpanSpool) => SpanSpool = (spool) => spool) {
  const file = path.join(folder, `${++spoolCount}.spool`);
  const spool = wrap(openSpoolFile(file));
  const fd = openSync(file, 'r');
  const frames = () => readSpoolFrames(readFileSync(file)).batches;
  const eventsOf = (message: RunnerEvent) => spanEventsOf(message as Extract<RunnerEvent, { type: 'span-events' }>, (range) => readSpoolRange(fd, range));
  return { spool, frames, eventsOf, outbox: new RunnerSpanOutbox((event) => sent.push(event), spool) };
}

type SpanEvents = Extract<RunnerEvent, { type: 'span-events' }>;

describe('RunnerSpanOutbox with a spool', () => {
  it('writes what is queued to the spool before tools/ code runs, and the tick’s one message announces the new frames by their range', async () => {
    const { spool, frames, eventsOf, outbox } = spooledOutbox();
    outbox.queueStart(start('1'.repeat(16), 'generate'), false);
    outbox.queueEnd(ended('2'.repeat(16)), owner);
    outbox.queueStart(start('3'.repeat(16), 'tool'), true);
    // In the spool at once, before the tool could run; nothing woke the server yet.
    expect(frames()).toEqual([
      { starts: [expect.objectContaining({ spanId: '1'.repeat(16) }), expect.objectContaining({ spanId: '3'.repeat(16) })], ends: [expect.objectContaining({ spanId: '2'.repeat(16), requestId: 'run-1:1' })] },
    ]);
    expect(sent).toEqual([]);
    // A second action start spools only what is new.
    outbox.queueEnd(ended('4'.repeat(16)), owner);
    outbox.queueStart(start('5'.repeat(16), 'model'), true);
    expect(frames()[1]).toEqual({ starts: [expect.objectContaining({ spanId: '5'.repeat(16) })], ends: [expect.objectContaining({ spanId: '4'.repeat(16) })] });
    // What ends after the last action start goes into the spool at the tick, and one message names all of it.
    outbox.queueEnd(ended('6'.repeat(16)), owner);
    await tick();
    expect(frames()).toHaveLength(3);
    expect(sent).toEqual([{ type: 'span-events', starts: [], ends: [], spooled: { epoch: 0, offset: 0, length: spool.size() } }]);
    const events = eventsOf(sent[0]);
    expect(events.starts.map((event) => event.spanId)).toEqual(['1', '3', '5'].map((digit) => digit.repeat(16)));
    expect(events.ends.map((record) => record.spanId)).toEqual(['2', '4', '6'].map((digit) => digit.repeat(16)));
    expect(events.problems).toEqual([]);
    // The next message names only what is new.
    const before = spool.size();
    outbox.queueEnd(ended('7'.repeat(16)), owner);
    await tick();
    expect((sent[1] as SpanEvents).spooled).toEqual({ epoch: 0, offset: before, length: spool.size() - before });
    expect(eventsOf(sent[1]).ends.map((record) => record.spanId[0])).toEqual(['7']);
  });

  it('empties the spool only when the server has read all of it, and counts its offsets from there', async () => {
    const { spool, eventsOf, outbox } = spooledOutbox();
    outbox.queueEnd(ended('1'.repeat(16)), owner);
    await tick();
    const size = spool.size();
    // Not all of it read, a stale epoch, or frames written since: the file stays.
    outbox.serverRead({ epoch: 0, bytes: size - 1 });
    outbox.serverRead({ epoch: 1, bytes: size });
    outbox.queueStart(start('2'.repeat(16), 'tool'), true);
    outbox.serverRead({ epoch: 0, bytes: size });
    expect(spool.size()).toBeGreaterThan(size);
    await tick();
    outbox.serverRead({ epoch: 0, bytes: spool.size() });
    expect(spool.size()).toBe(0);
    outbox.queueEnd(ended('3'.repeat(16)), owner);
    await tick();
    expect((sent.at(-1) as SpanEvents).spooled).toEqual({ epoch: 1, offset: 0, length: spool.size() });
    expect(eventsOf(sent.at(-1)!).ends.map((record) => record.spanId[0])).toEqual(['3']);
  });

  it('announces spooled frames at once once they pass a pipe’s buffer (64 KiB), not only at the tick', () => {
    const { frames, eventsOf, outbox } = spooledOutbox();
    const big = (spanId: string) => {
      const span = ended(spanId);
      return { ...span, spanContext: span.spanContext, attributes: { 'genkit:output': 'x'.repeat(30_000) } } as unknown as ReadableSpan;
    };
    // A loop that never yields to the event loop: two tool rounds of ~30 KB each stay unannounced…
    outbox.queueEnd(big('1'.repeat(16)), owner);
    outbox.queueStart(start('2'.repeat(16), 'tool'), true);
    outbox.queueEnd(big('3'.repeat(16)), owner);
    outbox.queueStart(start('4'.repeat(16), 'tool'), true);
    expect(sent).toEqual([]);
    // …the third passes 64 KiB: all three are announced now.
    outbox.queueEnd(big('5'.repeat(16)), owner);
    outbox.queueStart(start('6'.repeat(16), 'tool'), true);
    expect(frames()).toHaveLength(3);
    expect(sent).toHaveLength(1);
    expect(eventsOf(sent[0]).ends.map((record) => record.spanId[0])).toEqual(['1', '3', '5']);
  });

  it('sends at once over IPC, behind what the spool took, when the spool cannot take a batch, and without a spool', () => {
    let failing = false;
    const { eventsOf, outbox } = spooledOutbox((spool) => ({
      ...spool,
      write: (payload) => {
        if (failing) throw new Error('ENOSPC');
        spool.write(payload);
      },
    }));
    outbox.queueStart(start('1'.repeat(16), 'tool'), true);
    failing = true;
    outbox.queueEnd(ended('2'.repeat(16)), owner);
    outbox.queueStart(start('3'.repeat(16), 'tool'), true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'span-events', starts: [{ spanId: '3'.repeat(16) }], ends: [{ spanId: '2'.repeat(16) }], spooled: { offset: 0 } });
    expect(eventsOf(sent[0]).starts.map((event) => event.spanId[0])).toEqual(['1', '3']);
    sent = [];
    const withoutSpool = new RunnerSpanOutbox((event) => sent.push(event));
    withoutSpool.queueEnd(ended('2'.repeat(16)), owner);
    withoutSpool.queueStart(start('3'.repeat(16), 'tool'), true);
    expect(sent).toEqual([{ type: 'span-events', starts: [expect.objectContaining({ spanId: '3'.repeat(16) })], ends: [expect.objectContaining({ spanId: '2'.repeat(16) })] }]);
  });
});

describe('RunnerSpanOutbox, what it leaves out and what it puts behind', () => {
  it('sends no start for a span that ended before its start left the process, and keeps the starts that left', async () => {
    const { frames, eventsOf, outbox } = spooledOutbox();
    outbox.queueStart(start('1'.repeat(16), 'generate'), false);
    outbox.queueStart(start('2'.repeat(16), 'model'), false);
    outbox.queueEnd(ended('2'.repeat(16)), owner);
    outbox.queueStart(start('3'.repeat(16), 'tool'), true);
    // The model's start is gone (its end is there); the generate's and the tool's, still open, are kept.
    expect(frames()[0].starts.map((event) => event.spanId)).toEqual(['1'.repeat(16), '3'.repeat(16)]);
    // A span whose start is in the spool already ends: its end goes, the start stays where it is.
    outbox.queueEnd(ended('3'.repeat(16)), owner);
    await tick();
    const { starts, ends } = eventsOf(sent[0]);
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
