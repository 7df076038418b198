import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../store/load-trace-file';
import type { Span } from '../../spans/span';
import { checkResumeFromTrace, resumeFromTrace } from './resume-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** Answering the interrupts of recorded genkit Go traces (real runs' fixtures, stored as captured) in the Go runner. */
const runner = useRunnerContext();
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');

async function capturePausedCall(name: string): Promise<Span[]> {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].filter((span) => span.name === 'generate' && !span.parentSpanId).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  const trace = spans.filter((span) => span.traceId === first.traceId);
  await runner.harness.store.append(trace);
  return trace;
}

describe('answering genkit Go interrupts of recorded traces, in the Go runner', () => {
  it('a restart with typed resume data: the tool runs again in genkit Go and reads it; the new traces link to the interrupt', async () => {
    const original = await capturePausedCall('go-restart-after-approval');
    const { run } = await resumeFromTrace(runner.context, { source: { traceIds: [original[0].traceId] }, respond: [], restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true, approvedBy: 'dana' } }] });
    const done = await runEnded({ context: runner.context, runId: run.runId, timeoutMs: 300_000 });
    expect(done).toMatchObject({ status: 'finished', text: 'Transfer done: 500 USD to Bob, approved by dana.' });
    const spans = [...original];
    for (const traceId of done.traceIds) spans.push(...((await runner.harness.store.get(traceId)) ?? []));
    const graph = buildRunGraph(spans);
    expect(graph.summary).toMatchObject({ generates: 2, interrupts: 1, restarts: 1, errors: 0 });
    expect(graph.generates[1].resume).toMatchObject({ answersGenerateId: graph.generates[0].id, evidence: 'link' });
    // The Go runner records the answer as an OTel link on the resume's generate root span.
    const root = spans.find((span) => span.name === 'generate' && span.parentSpanId === undefined && span.traceId !== original[0].traceId)!;
    expect(root.links.map((link) => [link.spanId, link.attributes['loopscope.link.type']])).toEqual([[graph.generates[0].spanId, 'answers-interrupt']]);
  }, 320_000);

  it('a response part; and a non-object resumed refused before anything runs, in Go’s terms', async () => {
    const question = await capturePausedCall('go-respond-to-question');
    const { run } = await resumeFromTrace(runner.context, { source: { traceIds: [question[0].traceId] }, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Aisle' } }], restart: [] });
    expect(await runEnded({ context: runner.context, runId: run.runId, timeoutMs: 300_000 })).toMatchObject({ status: 'finished', text: 'Booked your seat (Aisle) on the 9:40 to Porto.' });
    const transfer = await capturePausedCall('go-restart-after-approval');
    const before = runner.context.runs.list().length;
    await expect(resumeFromTrace(runner.context, { source: { traceIds: [transfer[0].traceId] }, respond: [], restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: 'yes' }] })).rejects.toThrow(/genkit Go would refuse this answer: tool\.Resume: resume data must serialize to a JSON object/);
    expect(runner.context.runs.list().length).toBe(before);
    const check = await checkResumeFromTrace(runner.context, { source: { traceIds: [transfer[0].traceId] }, respond: [], restart: [] });
    expect(check.validation.warnings.map((issue) => issue.message).join(' ')).toMatch(/is not answered, and nothing else is: genkit Go 1.12.0 does not treat that as a resume/);
  }, 320_000);
});
