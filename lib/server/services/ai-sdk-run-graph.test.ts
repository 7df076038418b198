import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { linkTraces, summarizeCapturedTrace } from '../../graph/trace-sessions';
import { resumeRun, startRun } from './run-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** The graph of AI SDK runs the real runner made and answered: drawn by the AI SDK dialect, the answer tied by the runner's span link. */
const runner = useRunnerContext();

describe('the graph of an AI SDK run answered through Loopscope', () => {
  it.each([
    ['ai-sdk-approval-denied', 'respond'],
    ['ai-sdk-handed-back-tool', 'respond'],
    ['ai-sdk-approval-approved', 'restart'],
  ] as const)('%s: a pause, then the answer linked by its OTel span link (%s)', async (scenario, kind) => {
    const run = await startRun({ context: runner.context, scenario });
    expect((await runEnded({ context: runner.context, runId: run.runId })).status).toBe('interrupted');
    resumeRun({ context: runner.context, runId: run.runId });
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done.status).toBe('finished');
    const spans = (await Promise.all(done.traceIds.map(async (traceId) => (await runner.harness.store.get(traceId))!))).flat();
    expect(spans.some((span) => span.links.length > 0)).toBe(true);
    const graph = buildRunGraph(spans);
    const [paused, answer] = graph.generates;
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, interrupts: 1, errors: 0, finishReason: 'stop', [kind === 'restart' ? 'restarts' : 'responds']: 1 });
    expect(answer.resume).toMatchObject({ answersGenerateId: paused.id, evidence: 'link' });
    expect(answer.resume?.resolutions.map((resolution) => resolution.kind)).toEqual([kind]);
    // The trace list links them the same way (the server indexes traces with summarizeCapturedTrace).
    const summaries = done.traceIds.map((traceId) => summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId)));
    const first = summaries.find((summary) => summary.traceId === paused.traceId)!;
    expect(first.linkKeys?.interrupted).toHaveLength(1);
    expect(linkTraces(summaries).statusOf(first)).toEqual({ status: 'answered', answeredBy: [answer.traceId] });
  });
});
