import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TraceStore } from '../../store/trace-store';
import { GRAPH_BUILDER_VERSION } from '../../graph/graph-builder-version';
import { SavedGraphCache } from './saved-graph-cache';

let directory: string;
let savedDir: string;
let cacheDir: string;
let store: TraceStore;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'loopscope-graph-cache-'));
  savedDir = path.join(directory, 'saved');
  cacheDir = path.join(directory, 'data', 'graph-cache');
  await mkdir(savedDir, { recursive: true });
  await copyFile(path.join(process.cwd(), 'traces', 'plain-tool-round.json'), path.join(savedDir, 'plain-tool-round.json'));
  store = new TraceStore({ dataDir: path.join(directory, 'data'), savedDir });
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const cache = (builderVersion?: number) => new SavedGraphCache({ store, savedDir, cacheDir, builderVersion });

describe('SavedGraphCache', () => {
  it('keys the cached Graph JSON by file version and builder version: another builder never gets an older one’s graph', async () => {
    const fresh = await cache().graphJson('plain-tool-round.json');
    expect(JSON.parse(fresh).summary).toMatchObject({ generates: 1, toolCalls: 2 });
    // A graph an older builder left on disk (here: a stale text under the current key).
    const [file] = await readdir(cacheDir);
    await writeFile(path.join(cacheDir, file), '{"stale":true}');
    // The same builder trusts its own cache (a new process reads it from disk)…
    expect(await cache().graphJson('plain-tool-round.json')).toBe('{"stale":true}');
    // …a newer builder computes the graph again, under a key of its own.
    expect(await cache(GRAPH_BUILDER_VERSION + 1).graphJson('plain-tool-round.json')).toBe(fresh);
    expect(await readdir(cacheDir)).toHaveLength(2);
  });
});
