import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../errors';
import { loadRecording } from '../../runner/load-recording';
import { RecordingSourceSchema } from '../../runner/runner-protocol';
import { loadTraceFile } from '../../store/load-trace-file';
import { TraceStore } from '../../store/trace-store';
import { recordingSourceOf } from './recording-source';
import { loadTraceSource } from './trace-source';

let directory: string;
let store: TraceStore;
let savedDir: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'loopscope-recording-'));
  savedDir = path.join(directory, 'saved');
  await mkdir(savedDir);
  store = new TraceStore({ dataDir: path.join(directory, 'data'), savedDir });
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const shipped = (name: string) => path.join(process.cwd(), 'traces', name);

describe('recordingSourceOf: what the runner is told to read for a replay', () => {
  it('a saved file: its absolute path in the saved folder, and the runner reads the same spans as the server', async () => {
    await copyFile(shipped('restart-after-approval.json'), path.join(savedDir, 'restart-after-approval.json'));
    const source = await recordingSourceOf(store, { file: 'restart-after-approval.json' });
    expect(source).toEqual({ savedFile: path.join(savedDir, 'restart-after-approval.json') });
    expect(RecordingSourceSchema.parse(source)).toEqual(source);
    expect(await loadRecording(source)).toEqual(await loadTraceSource({ store }, { file: 'restart-after-approval.json' }));
  });

  it('captured traces: a copy of each trace in the data folder, in the order asked — no span travels', async () => {
    const spans = await loadTraceFile(shipped('restart-after-approval.json'));
    await store.append(spans);
    const traceIds = [...new Set(spans.map((span) => span.traceId))].reverse();
    const source = await recordingSourceOf(store, { traceIds });
    expect(source).toEqual({ traces: traceIds.map((traceId) => ({ traceId, file: path.join(directory, 'data', 'recordings', `${traceId}.json`) })) });
    expect(JSON.stringify(source).length).toBeLessThan(400);
    expect(await loadRecording(source)).toEqual(await loadTraceSource({ store }, { traceIds }));
  });

  it('a trace id that only a saved file holds: that file, narrowed to the trace', async () => {
    await copyFile(shipped('restart-after-approval.json'), path.join(savedDir, 'chain.json'));
    const spans = await loadTraceFile(shipped('restart-after-approval.json'));
    const [first] = [...new Set(spans.map((span) => span.traceId))];
    const source = await recordingSourceOf(store, { traceIds: [first] });
    expect(source).toEqual({ traces: [{ traceId: first, file: path.join(savedDir, 'chain.json') }] });
    const read = await loadRecording(source);
    expect(read).toEqual(spans.filter((span) => span.traceId === first));
  });

  it('refuses what is not there, naming it, before anything starts', async () => {
    const missingFile = await recordingSourceOf(store, { file: 'nope.json' }).catch((error: unknown) => error);
    expect(LoopscopeError.isInstance(missingFile) && [missingFile.code, missingFile.message]).toEqual(['NOT_FOUND', 'No saved trace file named nope.json.']);
    const escape = await recordingSourceOf(store, { file: '../data/index.json' }).catch((error: unknown) => error);
    expect(LoopscopeError.isInstance(escape) && escape.code).toBe('INVALID_ARGUMENT');
    const missingTrace = await recordingSourceOf(store, { traceIds: ['a'.repeat(32)] }).catch((error: unknown) => error);
    expect(LoopscopeError.isInstance(missingTrace) && [missingTrace.code, missingTrace.message]).toEqual(['NOT_FOUND', `No trace ${'a'.repeat(32)}.`]);
  });

  it('the runner command accepts only absolute paths', () => {
    expect(RecordingSourceSchema.safeParse({ savedFile: 'traces/x.json' }).success).toBe(false);
    expect(RecordingSourceSchema.safeParse({ traces: [{ traceId: 'a'.repeat(32), file: 'x.json' }] }).success).toBe(false);
  });
});
