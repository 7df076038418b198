import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpanStartEvent } from './runner-protocol';
import { encodeSpanBatch, openSpoolFile, readSpoolFrames, spanEventsOf } from './span-batch-frames';

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

  it('takes a message’s spooled batches before its own events, also when the message went as JSON, and names a batch it cannot read', () => {
    const spooled = encodeSpanBatch({ starts: [start('1'.repeat(16))], ends: [] });
    // What JSON makes of a Buffer, when a value V8 could not clone sent the message as JSON (send-cloneable.ts).
    const asJson = JSON.parse(JSON.stringify(Buffer.from(spooled))) as { type: 'Buffer'; data: number[] };
    const events = spanEventsOf({ starts: [start('2'.repeat(16))], ends: [], spooled: [asJson, Buffer.from('junk')] });
    expect(events.starts.map((event) => event.spanId[0])).toEqual(['1', '2']);
    expect(events.problems).toEqual([expect.stringMatching(/^spooled batch 2 of 2: /)]);
  });

  it('refuses to encode a value V8 cannot clone (the outbox then sends at once, as JSON would)', () => {
    expect(() => encodeSpanBatch({ starts: [{ ...start('1'.repeat(16)), attributes: { bad: (() => 1) as unknown as string } }], ends: [] })).toThrow(/could not be cloned/);
  });
});
