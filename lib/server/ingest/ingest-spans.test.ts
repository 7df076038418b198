import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CapturedDb } from '../../store/captured-db';
import { buildSpan } from '../../spans/testing/build-span';
import { TraceStore } from '../../store/trace-store';
import { EventBus, type LiveEvent } from '../live/event-bus';
import { ingestSpans } from './ingest-spans';

const TRACE = 'a'.repeat(32);
let root: string;
let store: TraceStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ingest-'));
  store = new TraceStore({ dataDir: path.join(root, 'data'), savedDir: path.join(root, 'saved') });
});
afterEach(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

it('tells the pages once the spans are queued, before their commit, and a read on the event sees them', async () => {
  const bus = new EventBus();
  const events: LiveEvent[] = [];
  const reads: Promise<number | undefined>[] = [];
  bus.subscribe((event) => {
    events.push(event);
    // A page that reads the trace on the event.
    if (event.type === 'traces-changed') reads.push(store.get(TRACE).then((spans) => spans?.length));
  });
  const spans = [buildSpan({ traceId: TRACE, spanId: '1'.repeat(16), name: 'flow' }), buildSpan({ traceId: TRACE, spanId: '2'.repeat(16), parentSpanId: '1'.repeat(16), name: 'tool' })];
  const writes = vi.spyOn(CapturedDb.prototype, 'write');
  const ingested = ingestSpans({ store, bus }, spans);
  expect(events.map((event) => event.type)).toEqual(['spans', 'traces-changed']);
  // Told before the commit.
  expect(writes).not.toHaveBeenCalled();
  expect(events[0]).toMatchObject({ type: 'spans', traceId: TRACE, spans: [{ spanId: '1'.repeat(16) }, { spanId: '2'.repeat(16) }] });
  expect(await reads[0]).toBe(2);
  await ingested;
  // The batch's write (an empty database's first write may come before it).
  expect(writes.mock.calls.some(([rows]) => rows.some((row) => row.summary.traceId === TRACE))).toBe(true);
  writes.mockRestore();
});
