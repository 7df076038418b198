import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../errors';
import { buildRunGraph } from '../../graph/build-run-graph';
import { linkTraces, summarizeCapturedTrace } from '../../graph/trace-sessions';
import { loadTraceFile } from '../../store/load-trace-file';
import { TraceStore } from '../../store/trace-store';
import { traceSession, traceSessionGraph } from './trace-session';

const FIXTURES = path.join(process.cwd(), 'lib', 'graph', '__fixtures__');

let dataDir: string;
let store: TraceStore;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-session-'));
  store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function capture(fixture: string) {
  const spans = await loadTraceFile(path.join(FIXTURES, fixture));
  await store.append(spans);
  const traceIds = [...new Set(spans.map((span) => span.traceId))];
  return { spans, traceIds };
}

describe('traceSessionGraph (GET /api/traces/{id}/session/graph)', () => {
  it('draws a trace with the resume that answered it, from either end of the session', async () => {
    const { spans, traceIds } = await capture('interrupt-restart.otlp.json');
    for (const traceId of traceIds) {
      const answer = await traceSessionGraph({ store }, traceId);
      expect(new Set(answer.traceIds)).toEqual(new Set(traceIds));
      expect(answer.spanCount).toBe(spans.length);
      expect(answer.graph.summary).toMatchObject({ traces: 2, generates: 2, interrupts: 1, restarts: 1, finishReason: 'stop' });
      expect(answer.graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
    }
    const first = await traceSessionGraph({ store }, traceIds[0]);
    expect(first.trace).toEqual({ traceId: traceIds[0], name: 'generate', status: 'interrupted' });
  });

  it('uses the matches decided over every captured trace: a guess stays a guess though its alternative is in another session', async () => {
    const { spans } = await capture('identical-conversations.otlp.json');
    const summaries = (await store.list()).reverse();
    const links = linkTraces(summaries);
    const interrupted = summaries.find((summary) => summary.status === 'interrupted')!;
    const answer = await traceSessionGraph({ store }, interrupted.traceId);
    // The session is one interrupt and its answer; the other pair is another session.
    expect(answer.traceIds).toHaveLength(2);
    const sessionSpans = spans.filter((span) => answer.traceIds.includes(span.traceId));
    expect(answer.graph).toEqual(buildRunGraph(sessionSpans, { matches: links.matchesOf(answer.traceIds) }));
    const [edge] = answer.graph.edges.filter((candidate) => candidate.kind === 'answer');
    expect(edge).toMatchObject({ ambiguous: true, alternatives: 1 });
    // Built from the session's spans alone, the same edge would look certain.
    const [alone] = buildRunGraph(sessionSpans).edges.filter((candidate) => candidate.kind === 'answer');
    expect(alone.ambiguous).toBeUndefined();
  });

  it('refuses a malformed id, and a trace that is in no store', async () => {
    const error = await traceSession({ store }, 'nope').catch((thrown: unknown) => thrown);
    expect(LoopscopeError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
    expect((error as Error).message).toBe('"nope" is not a trace id (32 lowercase hex characters).');
    const missing = await traceSessionGraph({ store }, 'f'.repeat(32)).catch((thrown: unknown) => thrown);
    expect(LoopscopeError.isInstance(missing) && missing.code).toBe('NOT_FOUND');
    expect((missing as Error).message).toBe(`No trace ${'f'.repeat(32)}.`);
  });
});
