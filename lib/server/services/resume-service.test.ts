import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../store/load-trace-file';
import type { Span } from '../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../spans/trace-link-keys';
import { resumeFromTrace } from './resume-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** Resumes recorded interrupts (from the shipped example files) with the real runner. */
const runner = useRunnerContext();

/** Stores the first trace of an example file (the interrupted generate) as if it had been captured. */
async function captureFirstTrace(name: string): Promise<Span[]> {
  const spans = await loadTraceFile(path.join(process.cwd(), 'traces', `${name}.json`));
  const first = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  const trace = spans.filter((span) => span.traceId === first.traceId);
  await runner.harness.store.append(trace);
  return trace;
}

const finished = (runId: string) => runEnded({ context: runner.context, runId });

describe('resumeFromTrace with the real runner', () => {
  it('restarts a recorded interrupt: the tool runs again, and the new trace links to the interrupt', async () => {
    const original = await captureFirstTrace('restart-after-approval');
    const { run } = await resumeFromTrace(runner.context, {
      source: { traceIds: [original[0].traceId] },
      respond: [],
      restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true, approvedBy: 'carol' } }],
    });
    const done = await finished(run.runId);
    expect(done.status).toBe('finished');
    // The scripted text quotes the restarted tool's output: carol's approval, not the script's alice.
    expect(done.text).toBe('Transfer done: 500 USD to Bob, approved by carol.');
    const resumed = (await runner.harness.store.get(done.traceIds[0]))!;
    const graph = buildRunGraph([...original, ...resumed]);
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, restarts: 1, finishReason: 'stop' });
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
    const ran = graph.generates[1].resumeToolCalls[0];
    expect(ran.output).toMatchObject({ status: 'done', approvedBy: 'carol' });
    // The resume's root span carries an OTel link to the interrupted generate, and that link decided.
    const interrupted = original.find((span) => span.parentSpanId === undefined)!;
    const root = resumed.find((span) => span.parentSpanId === undefined)!;
    expect(root.links.map((link) => [link.traceId, link.spanId, link.attributes[ANSWERS_LINK_ATTRIBUTE]])).toEqual([
      [interrupted.traceId, interrupted.spanId, ANSWERS_LINK_VALUE],
    ]);
    expect(graph.generates[1].resume).toMatchObject({ answersGenerateId: `${interrupted.traceId}:${interrupted.spanId}`, evidence: 'link' });
  });

  it('refuses, before anything runs, a resume of a trace whose model is not defined here, naming it', async () => {
    const spans = await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'interrupt-restart.otlp.json'));
    const first = spans.find((span) => span.parentSpanId === undefined && span.attributes['genkit:output']?.toString().includes('"interrupted"'))!;
    await runner.harness.store.append(spans.filter((span) => span.traceId === first.traceId));
    const runsBefore = runner.context.runs.list().length;
    await expect(
      resumeFromTrace(runner.context, { source: { traceIds: [first.traceId] }, respond: [], restart: [{ name: 'transferMoney', ref: 'tx1', resumed: { approvedBy: 'carol' } }] }),
    ).rejects.toThrow(/called model "fixture\/interrupt-restart", which is not defined here .*replay the trace instead/);
    expect(runner.context.runs.list().length).toBe(runsBefore);
  });

  it('two alternative answers to one interrupt become two branches of the graph', async () => {
    const original = await captureFirstTrace('respond-to-question');
    const answers = ['Window', 'Aisle'];
    const runs = [];
    for (const answer of answers) {
      const { run } = await resumeFromTrace(runner.context, { source: { traceIds: [original[0].traceId] }, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer } }], restart: [] });
      runs.push(await finished(run.runId));
    }
    const spans = [...original];
    for (const run of runs) spans.push(...((await runner.harness.store.get(run.traceIds[0])) ?? []));
    const graph = buildRunGraph(spans);
    const interrupt = graph.generates[0].turns[0].toolCalls[0];
    expect(interrupt.resolvedBy.map((resolution) => resolution.kind)).toEqual(['respond', 'respond']);
    // Both answers name the interrupt by their span link: alternative answers, not a guess.
    expect(graph.generates.slice(1).map((generate) => generate.resume?.evidence)).toEqual(['link', 'link']);
    expect(graph.edges.filter((edge) => edge.kind === 'answer' && edge.source === interrupt.id)).toHaveLength(2);
  });

  it('refuses, before anything runs, a resume that leaves an interrupt unanswered', async () => {
    const original = await captureFirstTrace('parallel-pending-output');
    const before = (await runner.harness.store.list()).length;
    await expect(resumeFromTrace(runner.context, { source: { traceIds: [original[0].traceId] }, respond: [], restart: [] })).rejects.toThrow(
      /Unresolved tool request 'transferMoney#refund-1'/,
    );
    expect((await runner.harness.store.list()).length).toBe(before);
  });

  it('asks to confirm genkit pitfalls (replaceInput, bug 2) before running', async () => {
    const original = await captureFirstTrace('restart-after-approval');
    const request = {
      source: { traceIds: [original[0].traceId] },
      respond: [],
      restart: [{ name: 'transferMoney', ref: 'transfer-1', replaceInput: { to: 'Bob', amountUsd: 50 } }],
    };
    await expect(resumeFromTrace(runner.context, request)).rejects.toThrow(/Confirm these warnings first: .*bug 2/);
    const { run } = await resumeFromTrace(runner.context, { ...request, confirmWarnings: true });
    expect((await finished(run.runId)).status).toBe('finished');
  });
});
