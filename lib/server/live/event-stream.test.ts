import { describe, expect, it } from 'vitest';
import type { Span } from '../../spans/span';
import { EventBus, type LiveEvent } from './event-bus';
import { openEventStream } from './event-stream';

/**
 * Live events with backpressure (issue 15, item 3): 20 subscribers that never read and one that
 * does, 50 MB of span events published. Each event is encoded once; every unread stream holds at
 * most its bound and is then dropped with a `missed` notice (its EventSource reconnects and
 * re-syncs); the reading subscriber gets every event.
 */
const MiB = 1 << 20;

function bigSpansEvent(index: number): LiveEvent {
  const traceId = (index + 1).toString(16).padStart(32, '0');
  const span: Span = {
    traceId,
    spanId: (index + 1).toString(16).padStart(16, '0'),
    name: `span-${index}`,
    kind: 1,
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000100000000',
    // ~100 KB of attribute per event: 500 events are 50 MB.
    attributes: { 'genkit:output': 'x'.repeat(100_000) },
    resource: { 'service.name': 'sse-test' },
    scope: { name: 'sse-test' },
    events: [],
    links: [],
    status: { code: 0 },
  };
  return { type: 'spans', traceId, spans: [span] };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

describe('the live event stream under slow subscribers', () => {
  it('20 subscribers that never read stay within their bound and are dropped with a missed notice; the reader gets all 500 events, each encoded once', async () => {
    const bus = new EventBus();
    const limit = 2 * MiB;
    const closed: number[] = [];
    const idle = Array.from({ length: 20 }, (_, index) => openEventStream({ bus, accepts: () => true, maxQueuedBytes: limit, onClose: () => closed.push(index) }));
    const reader = openEventStream({ bus, accepts: () => true, maxQueuedBytes: limit });
    const read = readAll(reader.stream);
    // Let every stream start (subscribe, send `ready`).
    await new Promise((resolve) => setImmediate(resolve));
    let published = 0;
    for (let index = 0; index < 500; index += 1) {
      const event = bigSpansEvent(index);
      bus.publish(event);
      published += JSON.stringify(event).length;
      // The reading page keeps up: it reads between events.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(published).toBeGreaterThan(50 * 1_000_000);
    // Encoded once per event, not once per subscriber.
    expect(bus.encodedFrames).toBe(500);
    // Every idle subscriber was dropped and unsubscribed; only the reader is left on the bus.
    expect(closed.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(bus.listenerCount).toBe(1);
    reader.close();
    const received = await read;
    expect(received.match(/^event: spans$/gm)).toHaveLength(500);
    expect(received).not.toContain('event: missed');
    // What an idle stream holds, read now: at most its bound, then the notice that tells the page to re-sync.
    for (const { stream } of idle) {
      const text = await readAll(stream);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit + 200);
      expect(text).toMatch(/event: missed\ndata: \{"missed":1,"limitBytes":2097152\}\nretry: 500\n\n$/);
      expect(text.match(/^event: spans$/gm)!.length).toBeLessThan(25);
    }
  }, 120_000);

  it('a watched run’s snapshot goes first, bus events meanwhile in between, then ready', async () => {
    const bus = new EventBus();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { stream, close } = openEventStream({
      bus,
      accepts: () => true,
      snapshot: async (send) => {
        send({ type: 'traces-changed', traceIds: ['snapshot-first'] });
        await gate;
        send({ type: 'traces-changed', traceIds: ['snapshot-last'] });
      },
    });
    const read = readAll(stream);
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish({ type: 'traces-changed', traceIds: ['meanwhile'] });
    release();
    await new Promise((resolve) => setImmediate(resolve));
    close();
    const order = [...(await read).matchAll(/"traceIds":\["([a-z-]+)"\]|event: (ready)/g)].map((match) => match[1] ?? match[2]);
    expect(order).toEqual(['snapshot-first', 'meanwhile', 'snapshot-last', 'ready']);
  });

  it('one event bigger than the bound still reaches a subscriber that has caught up', async () => {
    const bus = new EventBus();
    const { stream, close } = openEventStream({ bus, accepts: () => true, maxQueuedBytes: 50_000 });
    const read = readAll(stream);
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish(bigSpansEvent(0));
    await new Promise((resolve) => setImmediate(resolve));
    close();
    const text = await read;
    expect(text.match(/^event: spans$/gm)).toHaveLength(1);
    expect(text).not.toContain('event: missed');
  });

  it('a dropped stream that is still not read after its drain time is cut, its queue freed', async () => {
    const bus = new EventBus();
    const { stream } = openEventStream({ bus, accepts: () => true, maxQueuedBytes: 150_000, drainTimeoutMs: 50 });
    await new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < 3; index += 1) bus.publish(bigSpansEvent(index));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(readAll(stream)).rejects.toThrow('The page did not read its events.');
    expect(bus.listenerCount).toBe(0);
  });
});
