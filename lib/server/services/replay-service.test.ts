import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { summarizeCapturedTrace } from '../../graph/trace-sessions';
import { loadTraceFile } from '../../store/load-trace-file';
import { TraceStore } from '../../store/trace-store';
import type { Span } from '../../spans/span';
import { listTraces } from '../traces/list-traces';
import { startReplay } from './replay-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** Replays and forks shipped example files in the real runner; the replayed spans are stored from its IPC reports. */
const runner = useRunnerContext();

async function captured(name: string): Promise<{ spans: Span[]; traceIds: string[] }> {
  const spans = await loadTraceFile(path.join(process.cwd(), 'traces', `${name}.json`));
  await runner.harness.store.append(spans);
  return { spans, traceIds: [...new Set(spans.map((span) => span.traceId))] };
}

const finished = (runId: string) => runEnded({ context: runner.context, runId });

async function spansOf(traceIds: string[]): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of traceIds) spans.push(...((await runner.harness.store.get(traceId)) ?? []));
  return spans;
}

describe('replays in the runner', () => {
  it('replays a two-trace chain with stubs: it matches, and every replayed span arrives', async () => {
    const { spans, traceIds } = await captured('restart-after-approval');
    const run = await startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict' });
    expect(run.replay).toMatchObject({ liveTools: false, mode: 'strict' });
    const done = await finished(run.runId);
    expect(done.failure).toBeUndefined();
    expect(done.status).toBe('finished');
    expect(done.finishReason).toBe('match');
    expect(done.replay?.report?.matched).toBe(true);
    expect(done.traceIds).toHaveLength(2);
    const replayed = await spansOf(done.traceIds);
    expect(replayed).toHaveLength(spans.length);
    expect(buildRunGraph(replayed).summary).toEqual(buildRunGraph(spans).summary);
    // The replayed resume says which replayed generate it continues: an OTel link, as a live resume's.
    const [original, resume] = done.traceIds.map((traceId) => replayed.find((span) => span.traceId === traceId && span.parentSpanId === undefined)!);
    const ofType = (span: Span, type: string) => span.links.filter((link) => link.attributes['loopscope.link.type'] === type).map((link) => `${link.traceId}:${link.spanId}`);
    expect(ofType(resume, 'answers-interrupt')).toEqual([`${original.traceId}:${original.spanId}`]);
    expect(buildRunGraph(replayed).generates[1].resume?.evidence).toBe('link');
    // Each replayed call also names the recorded call it replays, so the list nests the replay under its recording.
    const recordedRoots = traceIds.map((traceId) => spans.find((span) => span.traceId === traceId && span.parentSpanId === undefined)!);
    expect([original, resume].map((root) => ofType(root, 'replays'))).toEqual(recordedRoots.map((root) => [`${root.traceId}:${root.spanId}`]));
    // Listed as the server lists them (its store summarizes with the dialects: link keys, sessions).
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-replay-list-'));
    const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
    await store.append(spans);
    await store.append(replayed);
    const rows = new Map((await listTraces({ store })).map((row) => [row.traceId, row]));
    await rm(dataDir, { recursive: true, force: true });
    const recordedHead = traceIds.find((traceId) => rows.get(traceId)?.groupOf === undefined)!;
    expect(rows.get(done.traceIds[0])).toMatchObject({ groupOf: recordedHead, replays: [traceIds[0]] });
    expect(rows.get(done.traceIds[1])?.groupOf).toBe(recordedHead);
  });

  it('replays with the runner’s local tools', async () => {
    const { traceIds } = await captured('parallel-pending-output');
    const done = await finished((await startReplay(runner.context, { source: { traceIds }, liveTools: true, mode: 'strict' })).runId);
    expect(done.replay?.report).toMatchObject({ matched: true, liveTools: true });
  });

  it('a fork replaces a finished tool output and goes on leniently: the next model call diverges where it reads it', async () => {
    const { spans, traceIds } = await captured('plain-tool-round');
    const weather = spans.find((span) => span.name === 'getWeather')!;
    const run = await startReplay(runner.context, {
      source: { traceIds },
      liveTools: false,
      mode: 'strict',
      fork: { kind: 'tool', span: `${weather.traceId}:${weather.spanId}`, output: { city: 'Lisbon', temperatureC: 31, conditions: 'hot' } },
    });
    expect(run.replay).toMatchObject({ mode: 'lenient', fork: expect.stringContaining('getWeather answers') });
    const done = await finished(run.runId);
    const report = done.replay!.report!;
    expect(report.matched).toBe(false);
    expect(report.steps[0].replayed).toMatchObject({ kind: 'finished', finishReason: 'stop' });
    expect(report.divergences[0]).toMatchObject({ kind: 'model-request', call: 'model call 2', recorded: 'sunny', replayed: 'hot' });
    expect(report.divergences[0].field).toMatch(/toolResponse\.output\.conditions$/);
    expect(report.divergences[0].replayedSpan?.traceId).toBe(done.traceIds[0]);
  });

  it('a fork of a model turn: the model answers in text instead of asking for tools, and the recorded tool calls never happen', async () => {
    const { spans, traceIds } = await captured('plain-tool-round');
    const firstModel = spans.filter((span) => span.attributes['genkit:metadata:subtype'] === 'model').sort((a, b) => (a.endTimeUnixNano! < b.endTimeUnixNano! ? -1 : 1))[0];
    const run = await startReplay(runner.context, {
      source: { traceIds },
      liveTools: true,
      mode: 'strict',
      fork: { kind: 'model', span: `${firstModel.traceId}:${firstModel.spanId}`, message: { role: 'model', content: [{ text: 'No tools today.' }] } },
    });
    const done = await finished(run.runId);
    const report = done.replay!.report!;
    expect(report.steps[0].replayed).toMatchObject({ kind: 'finished', finishReason: 'stop', message: { content: [{ text: 'No tools today.' }] } });
    expect(report.steps[0]).toMatchObject({ modelCalls: { recorded: 2, replayed: 1 }, toolCalls: { recorded: 2, replayed: 0 } });
    expect(report.divergences.map((divergence) => divergence.kind)).toEqual(['outcome', 'model-missing-call']);
    expect(await spansOf(done.traceIds)).toHaveLength(2);
  });

  it('a fork from a call that is not in the recording is refused with a clear error', async () => {
    const { traceIds } = await captured('plain-tool-round');
    await expect(startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict', fork: { kind: 'tool', span: `${'a'.repeat(32)}:${'b'.repeat(16)}`, output: 1 } })).rejects.toThrow(/no tool call .* to fork from/);
  });

  it('an AI SDK recording (approval asked, then answered in a second trace) replays in the runner with generateText: it matches, every replayed span arrives, nested under its recording', async () => {
    const spans = await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', 'ai-sdk-approval-approved.otlp.json'));
    await runner.harness.store.append(spans);
    const traceIds = [...new Set(spans.map((span) => span.traceId))];
    const done = await finished((await startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict' })).runId);
    expect(done.failure).toBeUndefined();
    expect(done.replay?.report).toMatchObject({ matched: true, divergences: [] });
    expect(done.replay?.report?.steps.map((step) => step.label)).toEqual(['call 1', 'call 2 (answer)']);
    const replayed = await spansOf(done.traceIds);
    expect(replayed).toHaveLength(spans.length);
    expect(buildRunGraph(replayed).summary).toEqual(buildRunGraph(spans).summary);
    const roots = done.traceIds.map((traceId) => replayed.find((span) => span.traceId === traceId && span.parentSpanId === undefined)!);
    const recordedRoots = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    const ofType = (span: Span, type: string) => span.links.filter((link) => link.attributes['loopscope.link.type'] === type).map((link) => `${link.traceId}:${link.spanId}`);
    expect(roots.map((root) => ofType(root, 'replays'))).toEqual(recordedRoots.map((root) => [`${root.traceId}:${root.spanId}`]));
    expect(ofType(roots[1], 'answers-interrupt')).toEqual([`${roots[0].traceId}:${roots[0].spanId}`]);
  });

  it('an AI SDK fork of a tool output diverges where the model reads it; a fork of its model answer is refused in one sentence', async () => {
    const spans = await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', 'ai-sdk-plain-tool-round.otlp.json'));
    await runner.harness.store.append(spans);
    const traceIds = [...new Set(spans.map((span) => span.traceId))];
    const weather = spans.find((span) => span.name === 'execute_tool getWeather')!;
    const run = await startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict', fork: { kind: 'tool', span: `${weather.traceId}:${weather.spanId}`, output: { city: 'Lisbon', tempC: 31, conditions: 'hot' } } });
    const report = (await finished(run.runId)).replay!.report!;
    expect(report.divergences[0]).toMatchObject({ kind: 'model-request', call: 'model call 2', recorded: 'sunny', replayed: 'hot' });
    const chat = spans.find((span) => span.name.startsWith('chat '))!;
    await expect(
      startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict', fork: { kind: 'model', span: `${chat.traceId}:${chat.spanId}`, message: { role: 'model', content: [{ text: 'x' }] } } }),
    ).rejects.toThrow(/^Forking a model answer is genkit-only for now/);
  });
});
