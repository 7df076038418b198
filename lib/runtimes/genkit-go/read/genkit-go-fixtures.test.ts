import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { loadTraceFile } from '../../../store/load-trace-file';
import { resumeContextFrom } from '../../resume-context';
import { dialectOf } from '../../index';

/**
 * Traces of real genkit Go runs (scripts/fixtures/genkit-go-fixtures.ts: every Go scenario in go/runner, genkit Go
 * v1.12.0) drawn by the genkit Go dialect: summaries field by field; a Go interrupt — a tool span
 * ending genkit:state=error — is a pause, never an error, and a ToolApproval hold is told from the
 * tool's own interrupt; resumes are linked to their interrupts, restarts drawn inside them.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
const graphOf = async (name: string) => buildRunGraph(await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`)));

const EXPECTED: Record<string, ReturnType<typeof buildRunGraph>['summary']> = {
  'go-plain-tool-round': { traces: 1, generates: 1, modelCalls: 2, toolCalls: 2, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-restart-after-approval': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, responds: 0, restarts: 1, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-restart-with-input': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, responds: 0, restarts: 1, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-respond-to-question': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 1, interrupts: 1, responds: 1, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-parallel-pending-output': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' },
  'go-non-object-interrupt': { traces: 1, generates: 1, modelCalls: 1, toolCalls: 1, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 1, finishReason: 'error' },
  'go-tool-throws': { traces: 1, generates: 1, modelCalls: 1, toolCalls: 1, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 1, finishReason: 'error' },
  'go-tool-approval-approved': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' },
  'go-tool-approval-refused': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, responds: 1, restarts: 0, pendingReused: 1, errors: 0, finishReason: 'stop' },
  'go-unknown-tool': { traces: 1, generates: 1, modelCalls: 1, toolCalls: 0, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 1, finishReason: 'error' },
};

describe('genkit Go traces, drawn', () => {
  for (const [name, summary] of Object.entries(EXPECTED)) {
    it(`${name}: ${JSON.stringify(summary)}`, async () => {
      const graph = await graphOf(name);
      expect(graph.summary).toStrictEqual(summary);
      expect(graph.generates.every((call) => call.runtime === 'genkit-go')).toBe(true);
    });
  }

  it('a Go interrupt is a pause, not an error: its span ended genkit:state=error, the output message says interrupt', async () => {
    const spans = await loadTraceFile(path.join(FIXTURES, 'go-restart-after-approval.otlp.json'));
    const tool = spans.find((span) => span.name === 'transferMoney' && span.parentSpanId !== undefined)!;
    expect(tool.attributes['genkit:state']).toBe('error');
    expect(dialectOf(tool)?.id).toBe('genkit-go');
    const graph = buildRunGraph(spans);
    const paused = graph.generates[0].turns[0].toolCalls[0];
    expect(paused).toMatchObject({ status: 'interrupted', interrupt: { evidence: 'message', metadata: { reason: 'approval-required', limitUsd: 100, amountUsd: 500 } } });
    expect(graph.generates[0].status).toBe('interrupted');
    expect(graph.nodes.find((node) => node.id === paused.id)).toMatchObject({ kind: 'tool-interrupt' });
  });

  it('a restart runs inside the resume’s generate, before its next turn: drawn as the resume’s restarted call, linked to the interrupt by the OTel link', async () => {
    const graph = await graphOf('go-restart-after-approval');
    const [interrupted, resume] = graph.generates;
    // The Go runner records the answer as an OTel link: the link decides, no guess.
    expect(resume.resume).toMatchObject({ answersGenerateId: interrupted.id, evidence: 'link' });
    expect(resume.resumeToolCalls).toHaveLength(1);
    expect(resume.resumeToolCalls[0].traceId).toBe(resume.traceId);
    expect(resume.resume!.resolutions[0]).toMatchObject({ kind: 'restart', resumed: { approved: true, approvedBy: 'alice' }, restartedToolCallId: resume.resumeToolCalls[0].id });
    expect(resume.resume!.resolutions[0].replacedInput).toBeUndefined();
    expect(resume.notes).toEqual([]);
    expect(graph.nodes.filter((node) => node.kind === 'tool-call').map((node) => node.id)).toEqual([resume.resumeToolCalls[0].id]);
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });

  it('a restart with a new input: the new input is shown, and genkit Go keeping the old one in the history (as genkit JS’s bug 2) is named', async () => {
    const graph = await graphOf('go-restart-with-input');
    const resume = graph.generates[1];
    expect(resume.resume!.resolutions[0]).toMatchObject({ kind: 'restart', resumed: { confirmed: true }, replacedInput: { from: 'LIS', to: 'OPO', date: '2027-06-04' } });
    expect(resume.notes).toEqual([expect.stringMatching(/^genkit Go 1\.12\.0: the restart of bookFlight runs it with the new input .* keeps the original input — as genkit JS 1\.42's bug 2\.$/)]);
  });

  it('a ToolApproval hold is drawn as held by the hook, not as the tool’s own interrupt, with the evidence; the tool’s own interrupts are not', async () => {
    for (const name of ['go-tool-approval-approved', 'go-tool-approval-refused']) {
      const graph = await graphOf(name);
      const held = graph.generates[0].turns[0].toolCalls.find((call) => call.name === 'sendEmail')!;
      expect(held, name).toMatchObject({ status: 'interrupted', interrupt: { metadata: { message: 'Tool not in approved list: sendEmail' }, heldBy: { by: 'ToolApproval' } } });
      expect(held.interrupt!.heldBy!.evidence).toMatch(/genkit-middleware\/toolApproval, which this generate uses and which allows only getWeather\), not by sendEmail itself: sendEmail never ran/);
      expect(graph.nodes.find((node) => node.id === held.id)?.status, name).toMatch(/^held by ToolApproval — answered by (restart|respond)$/);
      // The allowed tool ran; its output was parked as pendingOutput and reused.
      expect(graph.generates[0].turns[0].toolCalls.find((call) => call.name === 'getWeather')).toMatchObject({ status: 'ok', parked: true });
    }
    const own = (await graphOf('go-restart-after-approval')).generates[0].turns[0].toolCalls[0];
    expect(own.interrupt?.heldBy).toBeUndefined();
  });

  it('the last paused Go call of a file is the one answered (its rules: resume-rules.test.ts)', async () => {
    const spans = await loadTraceFile(path.join(FIXTURES, 'go-respond-to-question.otlp.json'));
    expect(resumeContextFrom(spans)).toMatchObject({ dialect: 'genkit-go', requests: [{ name: 'askUser', ref: 'seat-1', state: 'interrupted' }] });
  });
});
