import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../spans/trace-link-keys';
import { resumeRun, startRun } from './run-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** Runs and their scripted resumes with the real runner. */
const runner = useRunnerContext();

describe('a run answered with its scenario’s scripted answer', () => {
  it('records on the resume’s root span an OTel link to the generate it answers', async () => {
    const run = await startRun({ context: runner.context, scenario: 'restart-after-approval' });
    const interrupted = await runEnded({ context: runner.context, runId: run.runId });
    expect(interrupted.status).toBe('interrupted');
    resumeRun({ context: runner.context, runId: run.runId });
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done.status).toBe('finished');
    expect(done.traceIds).toHaveLength(2);
    const [first, second] = await Promise.all(done.traceIds.map(async (traceId) => (await runner.harness.store.get(traceId))!));
    const original = first.find((span) => span.parentSpanId === undefined)!;
    const resume = second.find((span) => span.parentSpanId === undefined)!;
    expect(resume.links).toHaveLength(1);
    expect(resume.links[0]).toMatchObject({ traceId: original.traceId, spanId: original.spanId });
    expect(resume.links[0].attributes[ANSWERS_LINK_ATTRIBUTE]).toBe(ANSWERS_LINK_VALUE);
    // The first run's own root span has no link: it answers nothing.
    expect(original.links).toEqual([]);
    const graph = buildRunGraph([...first, ...second]);
    expect(graph.generates[1].resume).toMatchObject({ answersGenerateId: `${original.traceId}:${original.spanId}`, evidence: 'link' });
  });
});

describe('an AI SDK run answered with its scenario’s scripted answer', () => {
  it('pauses on the approval as interrupted, and the scripted approve resumes it to the end', async () => {
    const run = await startRun({ context: runner.context, scenario: 'ai-sdk-approval-approved' });
    const interrupted = await runEnded({ context: runner.context, runId: run.runId });
    expect(interrupted).toMatchObject({ status: 'interrupted', finishReason: 'tool-calls', interrupts: [{ kind: 'approval', toolName: 'transferMoney', toolCallId: 'transfer-1' }] });
    expect(() => resumeRun({ context: runner.context, runId: run.runId, resume: { respond: [{ name: 'transferMoney', ref: 'transfer-1', output: {} }] } })).toThrow(/runs on the AI SDK/);
    resumeRun({ context: runner.context, runId: run.runId });
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done).toMatchObject({ status: 'finished', finishReason: 'stop', text: 'Sent 500 USD to Bob.', resumes: 1, interrupts: [] });
    expect(done.traceIds).toHaveLength(2);
    const second = (await runner.harness.store.get(done.traceIds[1]))!;
    expect(second.filter((span) => span.name === 'execute_tool transferMoney')).toHaveLength(1);
  });

  it('a forged signed approval fails the run with the AI SDK’s signature error', async () => {
    const run = await startRun({ context: runner.context, scenario: 'ai-sdk-signed-approval-forged' });
    expect((await runEnded({ context: runner.context, runId: run.runId })).status).toBe('interrupted');
    resumeRun({ context: runner.context, runId: run.runId });
    const refused = await runEnded({ context: runner.context, runId: run.runId });
    expect(refused.status).toBe('failed');
    expect(refused.failure).toMatchObject({ name: 'AI_InvalidToolApprovalSignatureError' });
    expect(refused.failure?.message).toMatch(/invalid signature/);
  });
});
