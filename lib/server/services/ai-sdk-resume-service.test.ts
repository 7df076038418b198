import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../store/load-trace-file';
import type { Span } from '../../spans/span';
import { checkResumeFromTrace, resumeFromTrace } from './resume-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/**
 * Answers paused AI SDK calls of recorded traces (the fixtures of real runs, stored as if
 * captured from another process) with the real runner: the answering `generateText` runs with
 * tools/ai-sdk/, its spans are stored from the runner's IPC reports, and the new trace links to the pause it answered.
 */
const runner = useRunnerContext();
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');

async function capturePausedCall(name: string): Promise<Span[]> {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  const trace = spans.filter((span) => span.traceId === first.traceId);
  await runner.harness.store.append(trace);
  return trace;
}

async function answered(original: Span[], request: Parameters<typeof resumeFromTrace>[1]) {
  const { run } = await resumeFromTrace(runner.context, request);
  const done = await runEnded({ context: runner.context, runId: run.runId });
  const spans = (await runner.harness.store.get(done.traceIds[0])) ?? [];
  return { done, spans, graph: buildRunGraph([...original, ...spans]) };
}

describe('answering a paused AI SDK call of a recorded trace, with the real runner', () => {
  it('approve: the tool runs in the answering call, which links to the pause (restarts 1) and finishes', async () => {
    const original = await capturePausedCall('ai-sdk-approval-approved');
    const { done, spans, graph } = await answered(original, { source: { traceIds: [original[0].traceId] }, respond: [], restart: [], approve: [{ name: 'transferMoney', ref: 'transfer-1' }] });
    expect(done).toMatchObject({ status: 'finished', text: 'Sent 500 USD to Bob.' });
    // invoke_agent, the approved tool before step 1, step 1 and its chat: every span arrived.
    expect(spans.map((span) => span.name).sort()).toEqual(['chat scripted/ai-sdk-approval-approved', 'execute_tool transferMoney', 'invoke_agent scripted/ai-sdk-approval-approved', 'step 1']);
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, interrupts: 1, restarts: 1, responds: 0, errors: 0, finishReason: 'stop' });
    expect(graph.generates[1].resume).toMatchObject({ answersGenerateId: `${original[0].traceId}:${graph.generates[0].spanId}`, evidence: 'link' });
  });

  it('deny with a reason, and a respond for a handed-back tool: nothing runs, the model reads the answer', async () => {
    const denied = await capturePausedCall('ai-sdk-approval-denied');
    const deny = await answered(denied, { source: { traceIds: [denied[0].traceId] }, respond: [], restart: [], deny: [{ name: 'transferMoney', ref: 'transfer-1', reason: 'Bob is not a known payee.' }] });
    expect(deny.done.status).toBe('finished');
    expect(deny.spans.some((span) => span.name.startsWith('execute_tool'))).toBe(false);
    expect(deny.graph.summary).toMatchObject({ interrupts: 1, responds: 1, restarts: 0 });
    const handed = await capturePausedCall('ai-sdk-handed-back-tool');
    const respond = await answered(handed, { source: { traceIds: [handed[0].traceId] }, respond: [{ name: 'askUser', ref: 'ask-1', output: { answer: 'Aisle' } }], restart: [] });
    expect(respond.done.text).toBe('Booked a window seat on the 9:40 to Porto.');
    expect(respond.graph.summary).toMatchObject({ interrupts: 1, responds: 1 });
  });

  it('a signed run: the runner signs the rebuilt approval request with its secret and the SDK accepts it', async () => {
    const original = await capturePausedCall('ai-sdk-signed-approval-forged');
    const check = await checkResumeFromTrace(runner.context, { source: { traceIds: [original[0].traceId] }, respond: [], restart: [], approve: [{ name: 'transferMoney', ref: 'transfer-1' }] });
    expect(check.validation.payload.notes?.join(' ')).toMatch(/signs its approval requests/);
    const { done, spans } = await answered(original, { source: { traceIds: [original[0].traceId] }, respond: [], restart: [], approve: [{ name: 'transferMoney', ref: 'transfer-1' }] });
    expect(done.status).toBe('finished');
    expect(spans.filter((span) => span.name === 'execute_tool transferMoney')).toHaveLength(1);
  });

  it('refuses before anything runs: an unanswered call, an approval of a tool that is not here, a trace of a model not defined here', async () => {
    const original = await capturePausedCall('ai-sdk-approval-approved');
    const runsBefore = runner.context.runs.list().length;
    const source = { traceIds: [original[0].traceId] };
    await expect(resumeFromTrace(runner.context, { source, respond: [], restart: [] })).rejects.toThrow(/Vercel AI SDK would refuse this answer: transferMoney#transfer-1 is not answered .*AI_MissingToolResultsError/);
    const handed = await capturePausedCall('ai-sdk-handed-back-tool');
    await expect(resumeFromTrace(runner.context, { source: { traceIds: [handed[0].traceId] }, respond: [], restart: [], approve: [{ name: 'askUser', ref: 'ask-1' }] })).rejects.toThrow(/askUser#ask-1 is a handed-back tool/);
    const foreign = original.map((span) => ({ ...span, traceId: 'f'.repeat(32), attributes: { ...span.attributes, 'gen_ai.request.model': 'gpt-9' } }));
    await runner.harness.store.append(foreign);
    await expect(resumeFromTrace(runner.context, { source: { traceIds: ['f'.repeat(32)] }, respond: [], restart: [], approve: [{ name: 'transferMoney', ref: 'transfer-1' }] })).rejects.toThrow(/called model "gpt-9", which is not defined here/);
    expect(runner.context.runs.list().length).toBe(runsBefore);
  });
});
