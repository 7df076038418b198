import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpanStartEvent, SpoolRange } from './runner-protocol';
import { encodeSpanBatch, openSpoolFile, readSpoolFrames, readSpoolRange, spanEventsOf } from './span-batch-frames';

const start = (spanId: string): SpanStartEvent => ({ runId: 'r', requestId: 'r:1', traceId: 'c'.repeat(32), spanId, name: 'tool', attributes: { 'genkit:input': '{"city":"Zürich"}' }, startTimeUnixNano: '1000' });
const folder = mkdtempSync(path.join(os.tmpdir(), 'loopscope-frames-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('span batch frames', () => {
  it('reads back every frame the spool file took, in order, and a cleared file starts again', () => {
    const file = path.join(folder, 'a.spool');
    const spool = openSpoolFile(file);
    spool.write(encodeSpanBatch({ starts: [start('1'.repeat(16))], ends: [] }));
    spool.write(encodeSpanBatch({ starts: [start('2'.repeat(16)), start('3'.repeat(16))], ends: [] }));
    const { batches, problem } = readSpoolFrames(readFileSync(file));
    expect(problem).toBeUndefined();
    expect(batches.map((batch) => batch.starts.map((event) => event.spanId[0]))).toEqual([['1'], ['2', '3']]);
    expect(batches[0].starts[0].attributes['genkit:input']).toBe('{"city":"Zürich"}');
    spool.clear();
    spool.write(encodeSpanBatch({ starts: [start('4'.repeat(16))], ends: [] }));
    expect(readSpoolFrames(readFileSync(file)).batches.map((batch) => batch.starts[0].spanId[0])).toEqual(['4']);
  });

  it('takes the frames of a message’s range before its own events, and names the bytes the file does not hold', () => {
    const file = path.join(folder, 'b.spool');
    const spool = openSpoolFile(file);
    spool.write(encodeSpanBatch({ starts: [start('1'.repeat(16))], ends: [] }));
    const second = spool.size();
    spool.write(encodeSpanBatch({ starts: [start('2'.repeat(16))], ends: [] }));
    const fd = openSync(file, 'r');
    const read = (range: SpoolRange) => readSpoolRange(fd, range);
    const events = spanEventsOf({ starts: [start('3'.repeat(16))], ends: [], spooled: { epoch: 0, offset: 0, length: spool.size() } }, read);
    expect(events.starts.map((event) => event.spanId[0])).toEqual(['1', '2', '3']);
    expect(events.problems).toEqual([]);
    expect(spanEventsOf({ starts: [], ends: [], spooled: { epoch: 0, offset: second, length: spool.size() - second } }, read).starts.map((event) => event.spanId[0])).toEqual(['2']);
    // A range past the file's end (it was emptied under it): the whole frames are kept, the rest named.
    const past = spanEventsOf({ starts: [], ends: [], spooled: { epoch: 0, offset: 0, length: spool.size() + 10 } }, read);
    expect(past.starts.map((event) => event.spanId[0])).toEqual(['1', '2']);
    expect(past.problems).toEqual([`spooled bytes 0–${spool.size() + 10}: the spool file holds ${spool.size()} of the ${spool.size() + 10} bytes announced`]);
    spool.clear();
    expect(readSpoolRange(fd, { epoch: 0, offset: 0, length: second })).toEqual({ batches: [], problem: `the spool file holds 0 of the ${second} bytes announced` });
    closeSync(fd);
  });

  it('refuses to encode a value V8 cannot clone (the outbox then sends at once, as JSON would)', () => {
    expect(() => encodeSpanBatch({ starts: [{ ...start('1'.repeat(16)), attributes: { bad: (() => 1) as unknown as string } }], ends: [] })).toThrow(/could not be cloned/);
  });
});
