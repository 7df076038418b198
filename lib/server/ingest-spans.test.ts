import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildSpan } from '../trace/testing/build-span';
import { TraceStore } from '../trace/trace-store';
import { EventBus, type LiveEvent } from './event-bus';
import { ingestSpans } from './ingest-spans';

const TRACE = 'a'.repeat(32);
let root: string;
let store: TraceStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ingest-'));
  // A behind wait no test lasts: the spans commit only when a read hurries them.
  store = new TraceStore({ dataDir: path.join(root, 'data'), savedDir: path.join(root, 'saved'), behindMs: 60_000 });
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
  const ingested = ingestSpans({ store, bus }, spans, { behind: true });
  expect(events.map((event) => event.type)).toEqual(['spans', 'traces-changed']);
  expect(events[0]).toMatchObject({ type: 'spans', traceId: TRACE, spans: [{ spanId: '1'.repeat(16) }, { spanId: '2'.repeat(16) }] });
  expect(await reads[0]).toBe(2);
  await ingested;
});
