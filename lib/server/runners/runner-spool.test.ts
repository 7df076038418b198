import { appendFileSync, existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { EndedSpanRecord } from '../../contract/ended-span';
import type { SpanStartEvent } from '../../runner/runner-protocol';
import { encodeSpanBatch, frameHeader, openSpoolFile } from '../../runner/span-batch-frames';
import { newSpoolPath, removeSpoolDirectory, RunnerSpool } from './runner-spool';

const TRACE = 'b'.repeat(32);
const start = (spanId: string): SpanStartEvent => ({ runId: 'r', requestId: 'r:1', traceId: TRACE, spanId, name: `span-${spanId[0]}`, attributes: {}, startTimeUnixNano: '1000' });
const end = (spanId: string): EndedSpanRecord => ({
  runId: 'r',
  requestId: 'r:1',
  traceId: TRACE,
  spanId,
  name: `span-${spanId[0]}`,
  kind: 0,
  startTime: [1, 0],
  endTime: [2, 0],
  attributes: { 'genkit:name': `span-${spanId[0]}` },
  events: [],
  links: [],
  status: { code: 1 },
  resource: {},
  scope: { name: 'genkit-tracer' },
});

afterAll(() => removeSpoolDirectory());

describe('RunnerSpool', () => {
  it('reads the frames a message announces, and says how far it read', () => {
    const spool = new RunnerSpool(newSpoolPath());
    const file = openSpoolFile(spool.file);
    file.write(encodeSpanBatch({ starts: [start('1'.repeat(16))], ends: [] }));
    const first = file.size();
    file.write(encodeSpanBatch({ starts: [], ends: [end('1'.repeat(16))] }));
    expect(spool.read).toEqual({ epoch: 0, bytes: 0 });
    expect(spool.readRange({ epoch: 0, offset: 0, length: first }).batches).toEqual([{ starts: [start('1'.repeat(16))], ends: [] }]);
    expect(spool.read).toEqual({ epoch: 0, bytes: first });
    expect(spool.readRange({ epoch: 0, offset: first, length: file.size() - first }).batches).toEqual([{ starts: [], ends: [end('1'.repeat(16))] }]);
    expect(spool.read).toEqual({ epoch: 0, bytes: file.size() });
    spool.takeMissed();
  });

  it('gives back, once, the spooled starts and ends that no message announced, skipping a frame cut short, and removes the file', () => {
    const spool = new RunnerSpool(newSpoolPath());
    // As the runner writes it (lib/runner/runner-span-outbox.ts).
    const file = openSpoolFile(spool.file);
    file.write(encodeSpanBatch({ starts: [start('1'.repeat(16)), start('2'.repeat(16))], ends: [] }));
    const announced = file.size();
    file.write(encodeSpanBatch({ starts: [start('3'.repeat(16))], ends: [end('2'.repeat(16))] }));
    // The runner died in the middle of this write.
    const cut = encodeSpanBatch({ starts: [start('5'.repeat(16))], ends: [] });
    appendFileSync(spool.file, Buffer.concat([frameHeader(cut), cut.subarray(0, 10)]));
    // A message announced the first frame; the second never was.
    spool.readRange({ epoch: 0, offset: 0, length: announced });
    const missed = spool.takeMissed();
    expect(missed.starts.map((event) => event.spanId)).toEqual(['3'.repeat(16)]);
    expect(missed.endRecords.map((record) => record.spanId)).toEqual(['2'.repeat(16)]);
    expect(missed.ends).toEqual([expect.objectContaining({ spanId: '2'.repeat(16), name: 'span-2', endTimeUnixNano: '2000000000' })]);
    expect(existsSync(spool.file)).toBe(false);
    expect(spool.takeMissed()).toEqual({ starts: [], endRecords: [], ends: [] });
  });

  it('counts nothing twice when the runner dies with everything announced, before it emptied its spool', () => {
    const spool = new RunnerSpool(newSpoolPath());
    const file = openSpoolFile(spool.file);
    file.write(encodeSpanBatch({ starts: [], ends: [end('3'.repeat(16))] }));
    spool.readRange({ epoch: 0, offset: 0, length: file.size() });
    expect(spool.takeMissed().ends).toEqual([]);
  });

  it('forgets what it saw once the runner announces frames of a new epoch (it emptied the file), and reads nothing from a spool never written', () => {
    const spool = new RunnerSpool(newSpoolPath());
    const file = openSpoolFile(spool.file);
    file.write(encodeSpanBatch({ starts: [], ends: [end('4'.repeat(16))] }));
    spool.readRange({ epoch: 0, offset: 0, length: file.size() });
    file.clear();
    file.write(encodeSpanBatch({ starts: [], ends: [end('5'.repeat(16))] }));
    spool.readRange({ epoch: 1, offset: 0, length: file.size() });
    expect(spool.read).toEqual({ epoch: 1, bytes: file.size() });
    // A frame holding span 4 again is read as missed: the sets hold only this epoch's spans (they do not grow run after run).
    file.write(encodeSpanBatch({ starts: [], ends: [end('4'.repeat(16)), end('5'.repeat(16))] }));
    expect(spool.takeMissed().ends.map((span) => span.spanId)).toEqual(['4'.repeat(16)]);
    expect(new RunnerSpool(newSpoolPath()).takeMissed().ends).toEqual([]);
  });

  it('names a range it cannot read, and keeps the whole frames before one that is not a span batch', () => {
    const missing = new RunnerSpool(newSpoolPath());
    expect(missing.readRange({ epoch: 0, offset: 0, length: 8 })).toEqual({ batches: [], problem: expect.stringMatching(/^the spool file could not be opened: .*ENOENT/) });
    const spool = new RunnerSpool(newSpoolPath());
    openSpoolFile(spool.file).write(encodeSpanBatch({ starts: [], ends: [end('6'.repeat(16))] }));
    const junk = Buffer.from('not V8 bytes');
    appendFileSync(spool.file, Buffer.concat([frameHeader(junk), junk]));
    expect(spool.takeMissed().ends.map((span) => span.spanId)).toEqual(['6'.repeat(16)]);
  });
});
