import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Span } from '../spans/span';
import { buildSpan } from '../spans/testing/build-span';
import { TraceStore } from '../store/trace-store';
import { storeNewTrace } from './store-new-trace';
import { startFakeReceiver } from './testing/fake-receiver';

const NEW_TRACE = 'abcdefabcdefabcdefabcdefabcdef01';
const SERVER_TRACE = '1234567890abcdef1234567890abcdef';

const spanOf = (traceId: string): Span =>
  buildSpan({ traceId, spanId: '1000000000000001', name: 'generate', startTimeUnixNano: '1718000000000000000', endTimeUnixNano: '1718000001000000000', attributes: { 'genkit:type': 'util' } });

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-store-new-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const startFakeServer = (dataDir: string) => startFakeReceiver({ dataDir, savedDir: path.join(root, 'saved') });

/** What a fresh store (another process) lists in the data dir. */
async function listedIn(dataDir: string) {
  const store = new TraceStore({ dataDir, savedDir: path.join(root, 'saved') });
  const listed = await store.list();
  await store.close();
  return listed;
}
const indexedIds = async (dataDir: string) => (await listedIn(dataDir)).map((entry) => entry.traceId).sort();

describe('storeNewTrace', () => {
  it('hands the spans to a running server on the same data dir: it lists them and keeps them in its index after its next write', async () => {
    const dataDir = path.join(root, 'data');
    const server = await startFakeServer(dataDir);
    try {
      const stored = await storeNewTrace({ spans: [spanOf(NEW_TRACE)], dataDir, savedDir: path.join(root, 'saved'), serverUrl: server.url });
      expect(stored).toEqual({ traceIds: [NEW_TRACE], via: 'server' });
      expect((await server.store.list()).map((summary) => summary.traceId)).toEqual([NEW_TRACE]);
      await server.store.append([spanOf(SERVER_TRACE)]);
      expect(await indexedIds(dataDir)).toEqual([SERVER_TRACE, NEW_TRACE].sort());
    } finally {
      await server.close();
    }
  });

  it('writes the data dir itself when no server answers, indexed with link keys like the server does', async () => {
    const dataDir = path.join(root, 'data');
    const stored = await storeNewTrace({ spans: [spanOf(NEW_TRACE)], dataDir, savedDir: path.join(root, 'saved'), serverUrl: 'http://127.0.0.1:1' });
    expect(stored).toEqual({ traceIds: [NEW_TRACE], via: 'direct', note: undefined });
    const [entry] = await listedIn(dataDir);
    expect(entry).toMatchObject({ traceId: NEW_TRACE, spanCount: 1, linkKeys: { interrupted: [], resumes: [] } });
  });

  it('writes directly, and says why, when the server that answered stores into another data dir', async () => {
    const server = await startFakeServer(path.join(root, 'server-data'));
    try {
      const dataDir = path.join(root, 'cli-data');
      const stored = await storeNewTrace({ spans: [spanOf(NEW_TRACE)], dataDir, savedDir: path.join(root, 'saved'), serverUrl: server.url });
      expect(stored.via).toBe('direct');
      expect(stored.note).toMatch(/stores into another data dir/);
      expect(await indexedIds(dataDir)).toEqual([NEW_TRACE]);
    } finally {
      await server.close();
    }
  });
});
