import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../contract/live-events';
import { summarizeCapturedTrace } from '../graph/trace-sessions';
import { loadTraceFile } from '../trace/load-trace-file';
import { INDEX_VERSION, TraceStore } from '../trace/trace-store';
import { deleteTraces } from './delete-traces';
import { listTraces } from './list-traces';

const FIXTURES = path.join(process.cwd(), 'lib', 'graph', '__fixtures__');

let dataDir: string;
let store: TraceStore;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-list-'));
  store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function capture(fixture: string): Promise<string[]> {
  const spans = await loadTraceFile(path.join(FIXTURES, `${fixture}.otlp.json`));
  await store.append(spans);
  const roots = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  return [...new Set(roots.map((span) => span.traceId))];
}

describe('listTraces (GET /api/traces)', () => {
  it('nests a resume under the interrupted run it answered; unrelated traces stand alone', async () => {
    const [interrupted, resume] = await capture('interrupt-restart');
    const [flow] = await capture('flow-two-generates');
    const rows = await listTraces({ store });
    const byId = new Map(rows.map((row) => [row.traceId, row]));
    expect(byId.get(resume)?.groupOf).toBe(interrupted);
    expect(byId.get(interrupted)?.groupOf).toBeUndefined();
    expect(byId.get(interrupted)).toMatchObject({ status: 'answered', answeredBy: [resume], runtime: 'genkit-js' });
    expect(byId.get(flow)?.groupOf).toBeUndefined();
    expect(byId.get(flow)?.title).toBe(byId.get(flow)?.name);
    for (const row of rows) expect(row).not.toHaveProperty('linkKeys');
  });

  it('rebuilds an index of version 2 (no titles) from the trace files, titles and runtimes included', async () => {
    const [interrupted] = await capture('interrupt-restart');
    const indexPath = path.join(dataDir, 'index.json');
    const index = JSON.parse(await readFile(indexPath, 'utf8'));
    expect(index.version).toBe(INDEX_VERSION);
    const old = { version: 2, traces: index.traces.map(({ title: _title, runtime: _runtime, ...rest }: Record<string, unknown>) => ({ ...rest, spanCount: 999 })) };
    await writeFile(indexPath, JSON.stringify(old));
    const reopened = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
    const rows = await listTraces({ store: reopened });
    const row = rows.find((candidate) => candidate.traceId === interrupted)!;
    expect(row.spanCount).not.toBe(999);
    expect(row).toMatchObject({ title: 'generate', runtime: 'genkit-js', status: 'answered' });
    expect(JSON.parse(await readFile(indexPath, 'utf8')).version).toBe(INDEX_VERSION);
  });

  it('a deleted trace leaves the list at once and live pages are told', async () => {
    const [interrupted, resume] = await capture('interrupt-restart');
    const events: LiveEvent[] = [];
    const bus = { publish: (event: LiveEvent) => events.push(event) };
    expect(await deleteTraces({ store, bus } as never, { traceIds: [interrupted] })).toEqual({ deleted: [interrupted] });
    expect(events).toEqual([{ type: 'traces-changed', traceIds: [interrupted] }]);
    const rows = await listTraces({ store });
    expect(rows.map((row) => row.traceId)).toEqual([resume]);
    expect(rows[0].groupOf).toBeUndefined();
  });
});
