import { mkdtemp, rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../contract/live-events';
import { summarizeCapturedTrace } from '../../graph/trace-sessions';
import { loadTraceFile } from '../../store/load-trace-file';
import { TraceStore } from '../../store/trace-store';
import { deleteTraces } from './delete-traces';
import { listTraces, queryTraces } from './list-traces';

const FIXTURES = path.join(process.cwd(), 'lib', 'graph', '__fixtures__');

let dataDir: string;
let store: TraceStore;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-list-'));
  store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

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

  it('summarizes rows of an older version again (no titles, version 2), titles, runtimes and statuses included', async () => {
    const [interrupted] = await capture('interrupt-restart');
    await store.close();
    const db = new Database(path.join(dataDir, 'loopscope.db'));
    db.prepare("UPDATE traces SET summary = json_remove(json_set(summary, '$.spanCount', 999), '$.title', '$.runtime')").run();
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'summaryVersion'").run();
    db.close();
    const reopened = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
    const rows = await listTraces({ store: reopened });
    const row = rows.find((candidate) => candidate.traceId === interrupted)!;
    expect(row.spanCount).not.toBe(999);
    expect(row).toMatchObject({ title: 'generate', runtime: 'genkit-js', status: 'answered' });
    await reopened.close();
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

describe('queryTraces (GET /api/traces?…)', () => {
  it('pages newest first with `next`, and every row reads as in the whole list', async () => {
    await capture('interrupt-restart');
    await capture('flow-two-generates');
    await capture('tool-error');
    const all = await listTraces({ store });
    expect(all.length).toBeGreaterThanOrEqual(4);
    const pages: string[][] = [];
    let after: { startTime: number; traceId: string } | undefined;
    for (;;) {
      const page = await queryTraces({ store }, { limit: 2, ...(after ? { after } : {}) });
      pages.push(page.traces.map((row) => row.traceId));
      for (const row of page.traces) expect(row).toEqual(all.find((candidate) => candidate.traceId === row.traceId));
      if (!page.next) break;
      const cut = page.next.lastIndexOf(':');
      after = { startTime: Number(page.next.slice(0, cut)), traceId: page.next.slice(cut + 1) };
    }
    expect(pages.flat()).toEqual(all.map((row) => row.traceId));
    expect(pages.every((page) => page.length <= 2)).toBe(true);
  });

  it('filters by status as shown (answered, decided by links) and by search words, long and short', async () => {
    const [interrupted, resume] = await capture('interrupt-restart');
    const [flow] = await capture('flow-two-generates');
    const answered = await queryTraces({ store }, { status: 'answered' });
    expect(answered.traces.map((row) => row.traceId)).toEqual([interrupted]);
    const all = await listTraces({ store });
    // Its stored status is `interrupted`, but it is not shown so: the filter finds what the list shows paused, and not it.
    const paused = (await queryTraces({ store }, { status: 'interrupted' })).traces.map((row) => row.traceId);
    expect(paused).toEqual(all.filter((row) => row.status === 'interrupted').map((row) => row.traceId));
    expect(paused).not.toContain(interrupted);
    const flowRow = all.find((row) => row.traceId === flow)!;
    const byTitle = await queryTraces({ store }, { q: flowRow.title.toUpperCase() });
    expect(byTitle.traces.map((row) => row.traceId)).toContain(flow);
    for (const row of byTitle.traces) expect(`${row.title}\n${row.name}`.toLowerCase()).toContain(flowRow.title.toLowerCase());
    // A piece of the trace id: two characters are too short for the trigram index and are matched row by row.
    expect((await queryTraces({ store }, { q: resume.slice(3, 5) })).traces.map((row) => row.traceId)).toContain(resume);
    expect((await queryTraces({ store }, { q: `${resume.slice(0, 12)} no-such-word` })).traces).toEqual([]);
    expect((await queryTraces({ store }, { runtime: 'genkit-js', since: 0 })).traces.length).toBe(all.filter((row) => row.runtime === 'genkit-js').length);
  });
});
