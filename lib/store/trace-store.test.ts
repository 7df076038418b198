import { mkdir, mkdtemp, readdir, readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CapturedDb } from './captured-db';
import { LoopscopeError } from '../errors';
import { decodeOtlpJson, encodeOtlpJson } from '../spans/otlp-json';
import type { Span } from '../spans/span';
import { buildSpan, type SpanOverrides } from '../spans/testing/build-span';
import { MAX_JSON_DEPTH } from '../spans/parse-json-limited';
import { deepKvlistValueText, OTLP_ATTRIBUTE_VALUE_DEPTH, otlpBodyText } from '../spans/testing/deep-json';
import { summarizeTrace } from '../spans/summarize-trace';
import { BEHIND_COMMIT_MS, INDEX_VERSION, TraceStore } from './trace-store';

const TRACE_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const TRACE_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const TRACE_C = 'cccccccccccccccccccccccccccccccc';
const ROOT = '1000000000000001';

function span(traceId: string, spanId: string, overrides: SpanOverrides = {}): Span {
  return buildSpan({
    traceId,
    spanId,
    name: 'flow',
    startTimeUnixNano: '1718000000000000000',
    endTimeUnixNano: '1718000001000000000',
    attributes: { 'genkit:type': 'flow', 'genkit:name': `flow-${traceId.slice(0, 4)}` },
    ...overrides,
  });
}

function childId(index: number): string {
  return (0x2000000000000000n + BigInt(index)).toString(16);
}

let root: string;
let dataDir: string;
let savedDir: string;
let store: TraceStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-store-'));
  dataDir = path.join(root, 'data');
  savedDir = path.join(root, 'saved');
  store = new TraceStore({ dataDir, savedDir });
});
afterEach(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** Every file under the temp root with its bytes (but SQLite's shared-memory index), to prove nothing was written. */
async function snapshot(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('-shm')) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(root, file)] = await readFile(file, 'base64');
  }
  return files;
}

async function rejection(promise: Promise<unknown>): Promise<LoopscopeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!LoopscopeError.isInstance(error)) throw new Error(`expected a LoopscopeError, got ${String(error)}`);
  return error;
}

describe('TraceStore.append', () => {
  it('appends that arrive while one is written are written together: 40 concurrent ones, every span kept, a few transactions, not 40', async () => {
    const writes = vi.spyOn(CapturedDb.prototype, 'write');
    const traceOf = (index: number) => (index + 1).toString(16).padStart(32, 'e');
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => store.append([span(traceOf(index % 10), childId(index + 1), { parentSpanId: ROOT })])));
    // Each caller hears of its own trace only.
    expect(results.map((result) => result.traceIds)).toEqual(Array.from({ length: 40 }, (_, index) => [traceOf(index % 10)]));
    for (let trace = 0; trace < 10; trace += 1) expect((await store.get(traceOf(trace)))?.length).toBe(4);
    expect(writes.mock.calls.length).toBeGreaterThanOrEqual(2); // the empty database's first write, then the batches
    expect(writes.mock.calls.length).toBeLessThanOrEqual(4);
    expect((await store.list()).length).toBe(10);
    writes.mockRestore();
  });

  it('queues spans at once and commits them a turn of the event loop later; a read meanwhile waits and sees them', async () => {
    const writes = vi.spyOn(CapturedDb.prototype, 'write');
    const queued = store.queueAppend([span(TRACE_A, ROOT)]);
    expect(queued.traceIds).toEqual([TRACE_A]);
    // Nothing written yet: the caller's tick (the run's done event) goes first.
    expect(writes).not.toHaveBeenCalled();
    const read = store.get(TRACE_A);
    expect((await read)?.map((item) => item.spanId)).toEqual([ROOT]);
    await queued.committed;
    // The batch's write (an empty database's first write may come before it).
    expect(writes.mock.calls.some(([rows]) => rows.some((row) => row.summary.traceId === TRACE_A))).toBe(true);
    // And the close writes what is still queued.
    store.queueAppend([span(TRACE_B, ROOT)]);
    await store.close();
    const fresh = new TraceStore({ dataDir, savedDir });
    expect((await fresh.list()).map((summary) => summary.traceId).sort()).toEqual([TRACE_A, TRACE_B]);
    await fresh.close();
    writes.mockRestore();
  });

  it("commits a batch nobody waits for ('behind') after a pause, at once when something reads, and with the next batch that is waited for", async () => {
    const writes = vi.spyOn(CapturedDb.prototype, 'write');
    const wrote = (traceId: string) => writes.mock.calls.some(([rows]) => rows.some((row) => row.summary.traceId === traceId));
    const turns = async (count: number) => {
      for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
    };
    // The database is open (its first opening takes turns of its own).
    await store.append([span('e'.repeat(32), ROOT)]);
    // The pause is a timer: faked, so a loaded machine's slow turns cannot pass for it (or hide it).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // On its own: not on the next turns of the event loop (the server's next request goes first), but after BEHIND_COMMIT_MS.
      const first = store.queueAppend([span(TRACE_A, ROOT)], { commit: 'behind' });
      await turns(5);
      vi.advanceTimersByTime(BEHIND_COMMIT_MS - 1);
      await turns(5);
      expect(wrote(TRACE_A)).toBe(false);
      vi.advanceTimersByTime(1);
      await first.committed;
      expect(wrote(TRACE_A)).toBe(true);
      // A read does not wait for the pause (no timer moves here): it starts the commit and sees the spans.
      const second = store.queueAppend([span(TRACE_B, ROOT)], { commit: 'behind' });
      expect((await store.get(TRACE_B))?.map((item) => item.spanId)).toEqual([ROOT]);
      await second.committed;
      // An append someone waits for (an OTLP export's answer) takes the waiting batch with it at once.
      const third = store.queueAppend([span(TRACE_C, ROOT)], { commit: 'behind' });
      const waited = store.queueAppend([span(TRACE_C, childId(1), { parentSpanId: ROOT })]);
      expect(waited.committed).toBe(third.committed);
      await waited.committed;
      expect((await store.get(TRACE_C))?.length).toBe(2);
    } finally {
      vi.useRealTimers();
      writes.mockRestore();
    }
  });

  it('checkpoints in a worker thread when asked: the log stays bounded, every trace is kept, and without better-sqlite3 to load it falls back and says so', async () => {
    const big = (index: number) => [span(`${index.toString(16).padStart(2, '0')}${'d'.repeat(30)}`, ROOT, { attributes: { 'genkit:type': 'flow', 'genkit:output': 'x'.repeat(400_000) } })];
    const walBytes = () => readFile(path.join(dataDir, 'loopscope.db-wal')).then((bytes) => bytes.byteLength);
    const background = new TraceStore({ dataDir, savedDir, backgroundCheckpoints: { projectDir: process.cwd() } });
    let largest = 0;
    for (let index = 0; index < 60; index += 1) {
      await background.append(big(index));
      largest = Math.max(largest, await walBytes());
    }
    // 60 traces of 400 KB, 24 MB in all: SQLite's safety bound alone (16,000 pages) would let the log reach 64 MB.
    expect(await background.backgroundCheckpointCount()).toBeGreaterThan(0);
    expect(largest).toBeLessThan(16 << 20);
    expect(background.warnings).toEqual([]);
    await background.close();
    // The worker's connection closed first, so the store's was the last: the log was copied and removed.
    await expect(walBytes()).rejects.toThrow(/ENOENT/);
    const reopened = new TraceStore({ dataDir, savedDir });
    expect(await reopened.count()).toBe(60);
    await reopened.close();

    // A project without better-sqlite3: SQLite checkpoints on commit again, and the store says why.
    const nowhere = await mkdtemp(path.join(os.tmpdir(), 'loopscope-no-modules-'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fallback = new TraceStore({ dataDir, savedDir, backgroundCheckpoints: { projectDir: nowhere } });
    largest = 0;
    for (let index = 60; index < 100; index += 1) {
      await fallback.append(big(index));
      largest = Math.max(largest, await walBytes());
    }
    expect(fallback.warnings).toEqual([expect.stringMatching(/^The trace database is checkpointed on commit again \(the checkpoint thread could not start: .*better-sqlite3/)]);
    expect(warn).toHaveBeenCalledWith(`loopscope: ${fallback.warnings[0]}`);
    expect(await fallback.backgroundCheckpointCount()).toBe(0);
    expect(largest).toBeLessThan(8 << 20);
    expect(await fallback.count()).toBe(100);
    await fallback.close();
    warn.mockRestore();
    await rm(nowhere, { recursive: true, force: true });
  });

  it('merges several batches of one trace into one stored trace', async () => {
    await store.append([span(TRACE_A, ROOT, { endTimeUnixNano: undefined })]);
    await store.append([span(TRACE_A, childId(1), { parentSpanId: ROOT })]);
    const result = await store.append([span(TRACE_A, ROOT)]);
    expect(result).toEqual({ traceIds: [TRACE_A] });

    const spans = await store.get(TRACE_A);
    expect(spans?.map((item) => item.spanId)).toEqual([ROOT, childId(1)]);
    expect(spans?.[0].endTimeUnixNano).toBe('1718000001000000000');
    // What another process reads (a fresh store on the same folder) and the copy handed to the runner.
    expect(await new TraceStore({ dataDir, savedDir }).get(TRACE_A)).toEqual(spans);
    const copy = await store.traceFile(TRACE_A);
    expect(copy).toEqual({ path: path.join(dataDir, 'recordings', `${TRACE_A}.json`), captured: true });
    expect(decodeOtlpJson(JSON.parse(await readFile(copy!.path, 'utf8')))).toEqual(spans);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ traceId: TRACE_A, spanCount: 2, status: 'ok' });
  });

  it('loses no span when many batches of one trace arrive at once', async () => {
    const batches = Array.from({ length: 40 }, (_, index) => [span(TRACE_A, childId(index), { parentSpanId: ROOT })]);
    await Promise.all(batches.map((batch) => store.append(batch)));
    expect((await store.get(TRACE_A))?.length).toBe(40);
    expect((await store.list())[0].spanCount).toBe(40);
    expect((await readdir(dataDir)).filter((file) => !file.startsWith('loopscope.db'))).toEqual([]);
  });

  it('splits a batch by trace and lists newest first', async () => {
    await store.append([
      span(TRACE_A, ROOT, { startTimeUnixNano: '1718000000000000000' }),
      span(TRACE_B, ROOT, { startTimeUnixNano: '1718000005000000000', endTimeUnixNano: '1718000006000000000' }),
    ]);
    expect((await store.list()).map((summary) => summary.traceId)).toEqual([TRACE_B, TRACE_A]);
  });

  it('writes nothing when the input is malformed', async () => {
    await store.append([span(TRACE_A, ROOT)]);
    const before = await snapshot();
    const badId = await rejection(store.append([span(TRACE_B, ROOT), span('not-hex', ROOT)]));
    expect(badId.code).toBe('INVALID_ARGUMENT');
    expect(badId.message).toBe('Invalid span at spans[1].traceId: expected 32 lowercase hex characters, not all zeros.');
    const badTime = await rejection(store.append([span(TRACE_B, ROOT, { endTimeUnixNano: '12.5' })]));
    expect(badTime.message).toContain('spans[0].endTimeUnixNano');
    // A valid first trace and an unencodable second one: the first must not be written either.
    const unencodable = { ...span(TRACE_C, ROOT), attributes: undefined } as unknown as Span;
    expect((await rejection(store.append([span(TRACE_B, ROOT), unencodable]))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(store.append('nope' as unknown as Span[]))).code).toBe('INVALID_ARGUMENT');
    expect(await snapshot()).toEqual(before);
    // The queue still works after failures.
    await store.append([span(TRACE_B, ROOT)]);
    expect((await store.list()).length).toBe(2);
  });

  it('refuses times above 2^64−1 (OTLP fixed64) before writing, as the decoders do', async () => {
    const before = await snapshot();
    for (const time of ['18446744073709551616', '99999999999999999999']) {
      const error = await rejection(store.append([span(TRACE_A, ROOT, { endTimeUnixNano: time })]));
      expect(error.message).toBe('Invalid span at spans[0].endTimeUnixNano: expected a decimal string of nanoseconds, at most 2^64−1.');
      expect((await rejection(store.append([span(TRACE_A, ROOT, { startTimeUnixNano: time })]))).message).toContain('spans[0].startTimeUnixNano');
    }
    expect(await snapshot()).toEqual(before);
    await store.append([span(TRACE_A, ROOT, { endTimeUnixNano: '18446744073709551615' })]);
    expect((await store.get(TRACE_A))?.[0].endTimeUnixNano).toBe('18446744073709551615');
  });

  it('refuses to merge into a corrupt stored trace and leaves it in place', async () => {
    await store.append([span(TRACE_A, ROOT)]);
    await store.close();
    const db = new Database(path.join(dataDir, 'loopscope.db'));
    db.prepare('UPDATE trace_spans SET spans = ?').run('{ not json');
    db.close();
    await store.list(); // opens the database again (its write-ahead log file appears)
    const before = await snapshot();
    const error = await rejection(store.append([span(TRACE_A, ROOT)]));
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.message).toContain('is corrupt');
    expect(await snapshot()).toEqual(before);
  });
});

describe('TraceStore database', () => {
  it('lists from the database, also in a fresh store (another process) on the same folder', async () => {
    await store.append([span(TRACE_A, ROOT)]);
    const other = new TraceStore({ dataDir, savedDir });
    expect((await other.list()).map((summary) => [summary.traceId, summary.spanCount])).toEqual([[TRACE_A, 1]]);
    const before = await store.generation();
    await other.append([span(TRACE_B, ROOT)]);
    // The first store sees the other's write at once, and its generation says the data changed.
    expect(await store.generation()).not.toBe(before);
    expect((await store.list()).map((summary) => summary.traceId).sort()).toEqual([TRACE_A, TRACE_B]);
    expect(await store.hasCaptured(TRACE_B)).toBe(true);
    await other.close();
  });

  it('summarizes rows of an older summary version again from their spans', async () => {
    await store.append([span(TRACE_A, ROOT)]);
    await store.close();
    const db = new Database(path.join(dataDir, 'loopscope.db'));
    db.prepare("UPDATE traces SET summary = json_set(summary, '$.spanCount', 99)").run();
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'summaryVersion'").run();
    db.close();
    const reopened = new TraceStore({ dataDir, savedDir });
    expect((await reopened.list()).map((summary) => summary.spanCount)).toEqual([1]);
    await reopened.close();
    const check = new Database(path.join(dataDir, 'loopscope.db'));
    expect(check.prepare("SELECT value FROM meta WHERE key = 'summaryVersion'").get()).toEqual({ value: String(INDEX_VERSION) });
    check.close();
  });

  it('migrates a data folder of the earlier layout (trace files + index.json): imports, then removes them; corrupt files stay with a warning', async () => {
    const legacy = path.join(dataDir, 'traces');
    await mkdir(legacy, { recursive: true });
    await writeFile(path.join(legacy, `${TRACE_A}.json`), JSON.stringify(encodeOtlpJson([span(TRACE_A, ROOT)])));
    await writeFile(path.join(legacy, `${TRACE_B}.json`), JSON.stringify(encodeOtlpJson([span(TRACE_B, ROOT), span(TRACE_B, childId(1), { parentSpanId: ROOT })])));
    const corruptPath = path.join(legacy, `${TRACE_C}.json`);
    await writeFile(corruptPath, '{"resourceSpans": "oops"}');
    await writeFile(path.join(legacy, `.${TRACE_A}.json.123.tmp`), '{"resour');
    await writeFile(path.join(dataDir, 'index.json'), JSON.stringify({ version: 3, traces: [{ traceId: TRACE_A, spanCount: 7 }] }));

    const summaries = await store.list();
    expect(summaries.map((summary) => [summary.traceId, summary.spanCount]).sort()).toEqual([
      [TRACE_A, 1],
      [TRACE_B, 2],
    ]);
    expect(store.warnings).toHaveLength(1);
    expect(store.warnings[0]).toContain(`Skipped ${corruptPath}`);
    expect(store.warnings[0]).toContain('it was left in place');
    expect(await readFile(corruptPath, 'utf8')).toBe('{"resourceSpans": "oops"}');
    expect((await readdir(dataDir)).sort()).toEqual(['loopscope.db', 'loopscope.db-shm', 'loopscope.db-wal', 'traces']);
    expect(await readdir(legacy)).toEqual([`${TRACE_C}.json`]);
    expect((await store.get(TRACE_B))?.map((item) => item.spanId)).toEqual([ROOT, childId(1)]);
  });

  it('a migration cut short (the file still there after its trace was imported) is done again without duplicates', async () => {
    await store.append([span(TRACE_A, ROOT, { endTimeUnixNano: undefined })]);
    await store.close();
    const legacy = path.join(dataDir, 'traces');
    await mkdir(legacy, { recursive: true });
    await writeFile(path.join(legacy, `${TRACE_A}.json`), JSON.stringify(encodeOtlpJson([span(TRACE_A, ROOT), span(TRACE_A, childId(1), { parentSpanId: ROOT })])));
    const reopened = new TraceStore({ dataDir, savedDir });
    expect((await reopened.list()).map((summary) => [summary.traceId, summary.spanCount])).toEqual([[TRACE_A, 2]]);
    expect((await reopened.get(TRACE_A))?.[0].endTimeUnixNano).toBe('1718000001000000000');
    expect(await readdir(dataDir)).not.toContain('traces');
    await reopened.close();
  });

  it('skips a legacy trace file nested past the JSON limit with a warning naming the depth, and keeps it', async () => {
    const legacy = path.join(dataDir, 'traces');
    await mkdir(legacy, { recursive: true });
    const deepPath = path.join(legacy, `${TRACE_C}.json`);
    const deep = otlpBodyText({ valueText: deepKvlistValueText(10_000) });
    await writeFile(deepPath, deep);
    expect(await store.list()).toEqual([]);
    expect(store.warnings).toEqual([
      `Skipped ${deepPath} while moving captured traces into ${path.join(dataDir, 'loopscope.db')}: the text is nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 40_000} levels deep; the limit is ${MAX_JSON_DEPTH}.; it was left in place.`,
    ]);
    expect(await readFile(deepPath, 'utf8')).toBe(deep);
  });

  it('a database file that is not one is refused by name and left in place', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'loopscope.db'), 'not a database, but someone\'s data');
    const error = await rejection(store.list());
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.message).toContain(`Could not open the trace database ${path.join(dataDir, 'loopscope.db')}`);
    expect(error.message).toContain('move it aside');
    expect(await readFile(path.join(dataDir, 'loopscope.db'), 'utf8')).toBe("not a database, but someone's data");
  });

  it('creates nothing for an empty store', async () => {
    expect(await store.list()).toEqual([]);
    expect(await snapshot()).toEqual({});
  });
});

describe('TraceStore.get', () => {
  it('returns captured spans, else spans from a saved file, else undefined', async () => {
    await store.append([span(TRACE_A, ROOT)]);
    await mkdir(savedDir, { recursive: true });
    await writeFile(path.join(savedDir, 'repro.json'), JSON.stringify(encodeOtlpJson([span(TRACE_B, ROOT), span(TRACE_C, ROOT)])));
    expect((await store.get(TRACE_A))?.[0].traceId).toBe(TRACE_A);
    expect((await store.get(TRACE_B.toUpperCase()))?.map((item) => item.traceId)).toEqual([TRACE_B]);
    expect(await store.get('dddddddddddddddddddddddddddddddd')).toBeUndefined();
    expect((await rejection(store.get('../../etc/passwd'))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('TraceStore.save / loadSaved', () => {
  beforeEach(async () => {
    await store.append([span(TRACE_A, ROOT), span(TRACE_B, ROOT)]);
  });

  it('writes the traces as pretty OTLP JSON and reads them back', async () => {
    expect(await store.save({ traceIds: [TRACE_A, TRACE_B], name: 'interrupt-bug' })).toEqual({ file: 'interrupt-bug.json' });
    const text = await readFile(path.join(savedDir, 'interrupt-bug.json'), 'utf8');
    expect(text).toContain('\n  "resourceSpans"');
    const spans = await store.loadSaved('interrupt-bug.json');
    expect(spans).toEqual([...((await store.get(TRACE_A)) ?? []), ...((await store.get(TRACE_B)) ?? [])]);
    expect(await store.loadSaved('interrupt-bug')).toEqual(spans);
    expect(await store.save({ traceIds: [TRACE_A], name: 'v1.2_final.json' })).toEqual({ file: 'v1.2_final.json' });
  });

  it('refuses to replace a file unless asked', async () => {
    await store.save({ traceIds: [TRACE_A], name: 'repro' });
    const error = await rejection(store.save({ traceIds: [TRACE_B], name: 'repro' }));
    expect(error.code).toBe('ALREADY_EXISTS');
    expect(error.message).toBe('A saved trace named repro.json already exists; choose another name or overwrite it.');
    expect((await store.loadSaved('repro.json'))[0].traceId).toBe(TRACE_A);
    await store.save({ traceIds: [TRACE_B], name: 'repro', overwrite: true });
    expect((await store.loadSaved('repro.json'))[0].traceId).toBe(TRACE_B);
    expect(await readdir(savedDir)).toEqual(['repro.json']);
  });

  it('reports unknown trace ids and writes nothing', async () => {
    const before = await snapshot();
    const error = await rejection(store.save({ traceIds: [TRACE_A, TRACE_C], name: 'partial' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(`Unknown trace id: ${TRACE_C}.`);
    expect(await snapshot()).toEqual(before);
  });

  it.each(['../x', '/etc/passwd', 'a/b', '..', '.hidden', 'x\u0000', 'a\\b', 'a..b', '', 'C:evil', 'x'.repeat(101), ' spaced'])(
    'rejects the name %j without writing',
    async (name) => {
      const before = await snapshot();
      expect((await rejection(store.save({ traceIds: [TRACE_A], name }))).code).toBe('INVALID_ARGUMENT');
      expect((await rejection(store.loadSaved(name))).code).toBe('INVALID_ARGUMENT');
      expect(await snapshot()).toEqual(before);
    },
  );

  it('explains a rejected name', async () => {
    expect((await rejection(store.save({ traceIds: [TRACE_A], name: '../x' }))).message).toBe(
      'Invalid saved trace name "../x": use only letters, digits, ".", "_" and "-", without ".." or folders.',
    );
    expect((await rejection(store.save({ traceIds: [TRACE_A], name: '.hidden' }))).message).toBe(
      'Invalid saved trace name ".hidden": it must not start with a dot.',
    );
  });

  it('reports a missing saved file as NOT_FOUND', async () => {
    const error = await rejection(store.loadSaved('nothing-here.json'));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('No saved trace file named nothing-here.json.');
  });
});

describe('TraceStore.listSaved', () => {
  const genkitTraceData = {
    traceId: TRACE_C,
    spans: {
      [ROOT]: { spanId: ROOT, traceId: TRACE_C, startTime: 1718000009000, endTime: 1718000009500, displayName: 'x', spanKind: 'INTERNAL', attributes: {} },
    },
  };

  async function writeSaved(file: string, content: string) {
    await mkdir(savedDir, { recursive: true });
    await writeFile(path.join(savedDir, file), content);
  }

  beforeEach(async () => {
    await writeSaved('described.json', JSON.stringify({ description: 'Resume drops the second interrupt', ...encodeOtlpJson([span(TRACE_A, ROOT)]) }));
    await writeSaved('capture.jsonl', `${JSON.stringify(encodeOtlpJson([span(TRACE_B, ROOT, { startTimeUnixNano: '1718000002000000000' })]))}\n`);
    await writeSaved('genkit.json', JSON.stringify(genkitTraceData));
    await writeSaved('broken.json', '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": 1}]}]}]}');
    await writeSaved('notes.md', '# not a trace');
    await writeSaved('.draft.json', '{}');
  });

  it('lists every json/jsonl file, newest first, with unreadable files carrying an error', async () => {
    const before = await readFile(path.join(savedDir, 'broken.json'), 'utf8');
    const files = await store.listSaved();
    expect(files.map((file) => file.file)).toEqual(['genkit.json', 'capture.jsonl', 'described.json', 'broken.json']);
    // Named by the span name: the store's default summarizer reads OpenTelemetry fields only (the server passes the dialects').
    expect(files[2]).toMatchObject({ traceIds: [TRACE_A], spanCount: 1, status: 'ok', description: 'Resume drops the second interrupt', name: 'flow' });
    expect(files[0]).toMatchObject({ traceIds: [TRACE_C], spanCount: 1, startTime: 1718000009000 });
    expect(files[3]).toMatchObject({ file: 'broken.json', traceIds: [], spanCount: 0, status: 'error' });
    expect(files[3].error).toBe('broken.json: Invalid OTLP JSON at resourceSpans[0].scopeSpans[0].spans[0].traceId: expected string, received number.');
    expect(await readFile(path.join(savedDir, 'broken.json'), 'utf8')).toBe(before);
  });
  it('summarizes saved files with the summarizer it was given (the server passes the dialects’)', async () => {
    const named = new TraceStore({ dataDir, savedDir, summarize: (traceId, spans) => ({ ...summarizeTrace({ traceId, spans }), name: `summarized ${spans.length}` }) });
    await writeFile(path.join(savedDir, 'one.json'), JSON.stringify(encodeOtlpJson([span(TRACE_A, ROOT)])));
    expect((await named.listSaved()).find((file) => file.file === 'one.json')).toMatchObject({ name: 'summarized 1' });
  });


  it('lists a saved file nested past the JSON limit with its error, and loadSaved refuses it with 400', async () => {
    await writeSaved('deep.json', otlpBodyText({ valueText: deepKvlistValueText(10_000) }));
    const expected = `deep.json: nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 40_000} levels deep; the limit is ${MAX_JSON_DEPTH}.`;
    expect((await store.listSaved()).find((file) => file.file === 'deep.json')).toMatchObject({ status: 'error', spanCount: 0, error: expected });
    const error = await rejection(store.loadSaved('deep.json'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(expected);
  });

  it('re-reads only new or changed files, also across store instances', async () => {
    // A whole-second mtime, so setting it again below restores it exactly.
    const described = path.join(savedDir, 'described.json');
    const mtime = new Date('2024-06-01T12:00:00Z');
    await utimes(described, mtime, mtime);
    await store.listSaved();
    // Same size and mtime but different content: a cached file must not be re-read.
    const text = await readFile(described, 'utf8');
    await writeFile(described, text.replace('second', 'SECOND'));
    await utimes(described, mtime, mtime);
    // A changed file (different size) must be re-read.
    await writeSaved('capture.jsonl', `${JSON.stringify(encodeOtlpJson([span(TRACE_B, ROOT), span(TRACE_B, childId(1), { parentSpanId: ROOT })]))}\n`);
    await unlink(path.join(savedDir, 'genkit.json'));

    const files = await store.listSaved();
    expect(files.map((file) => file.file).sort()).toEqual(['broken.json', 'capture.jsonl', 'described.json']);
    expect(files.find((file) => file.file === 'described.json')?.description).toBe('Resume drops the second interrupt');
    expect(files.find((file) => file.file === 'capture.jsonl')?.spanCount).toBe(2);

    const reopened = new TraceStore({ dataDir, savedDir });
    expect((await reopened.listSaved()).find((file) => file.file === 'described.json')?.description).toBe('Resume drops the second interrupt');
    const index = JSON.parse(await readFile(path.join(dataDir, 'saved-index.json'), 'utf8'));
    expect(index.files).toHaveLength(3);
  });

  it('loads .jsonl saved files too', async () => {
    expect((await store.loadSaved('capture.jsonl')).map((item) => item.traceId)).toEqual([TRACE_B]);
  });
});

describe('TraceStore.delete', () => {
  const captured = async () => {
    const ids: string[] = [];
    for (const traceId of [TRACE_A, TRACE_B, TRACE_C]) if (await store.hasCaptured(traceId)) ids.push(traceId);
    return ids;
  };

  beforeEach(async () => {
    await store.append([span(TRACE_A, ROOT), span(TRACE_B, ROOT), span(TRACE_C, ROOT)]);
    await mkdir(savedDir, { recursive: true });
    await writeFile(path.join(savedDir, 'kept.json'), JSON.stringify(encodeOtlpJson([span(TRACE_A, ROOT)])));
  });

  it('removes the given traces and the copies handed to the runner, and leaves saved files alone', async () => {
    const saved = await readFile(path.join(savedDir, 'kept.json'), 'utf8');
    const copy = (await store.traceFile(TRACE_A))!.path;
    expect(await store.delete({ traceIds: [TRACE_A, TRACE_B.toUpperCase()] })).toEqual({ traceIds: [TRACE_A, TRACE_B] });
    expect((await store.list()).map((summary) => summary.traceId)).toEqual([TRACE_C]);
    expect(await captured()).toEqual([TRACE_C]);
    expect(await store.getCaptured(TRACE_A)).toBeUndefined();
    expect(existsSync(copy)).toBe(false);
    // The saved copy still answers for the trace, byte for byte untouched.
    expect((await store.get(TRACE_A))?.map((item) => item.spanId)).toEqual([ROOT]);
    expect(await readFile(path.join(savedDir, 'kept.json'), 'utf8')).toBe(saved);
    // A fresh store (another process) does not see them either: deleted stays deleted.
    expect((await new TraceStore({ dataDir, savedDir }).list()).map((summary) => summary.traceId)).toEqual([TRACE_C]);
  });

  it('deletes all captured traces', async () => {
    expect((await store.delete({ all: true })).traceIds.sort()).toEqual([TRACE_A, TRACE_B, TRACE_C]);
    expect(await store.list()).toEqual([]);
    expect(await captured()).toEqual([]);
    expect(await readdir(savedDir)).toEqual(['kept.json']);
  });

  it('refuses unknown ids by name and deletes nothing', async () => {
    const unknown = 'e'.repeat(32);
    const before = await snapshot();
    const refused = await store.delete({ traceIds: [TRACE_A, unknown] }).catch((error: unknown) => error);
    expect(LoopscopeError.isInstance(refused) && refused.code).toBe('NOT_FOUND');
    expect((refused as Error).message).toContain(unknown);
    expect((refused as Error).message).not.toContain(TRACE_A);
    expect(await snapshot()).toEqual(before);
    await expect(store.delete({ traceIds: ['nope'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(store.delete({ traceIds: [] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('runs after an append in flight, never in the middle of it', async () => {
    const appending = store.append([span(TRACE_A, childId(1), { parentSpanId: ROOT })]);
    const deleting = store.delete({ traceIds: [TRACE_A] });
    await Promise.all([appending, deleting]);
    expect((await store.list()).map((summary) => summary.traceId).sort()).toEqual([TRACE_B, TRACE_C]);
    expect(await captured()).toEqual([TRACE_B, TRACE_C]);
  });
});
