import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../trace/load-trace-file';
import { resumeContextFrom } from '../../resume/resume-context';
import { dialectOf } from '../registry';

/**
 * Traces of real genkit Go runs (make-fixtures.ts: every Go scenario in go/runner, genkit Go
 * v1.4.0) drawn by the genkit Go dialect: summaries field by field; a Go interrupt — a tool span
 * ending genkit:state=error — is a pause, never an error; resumes recorded without `resume`
 * are linked to their interrupts, the restarted tool's trace of its own drawn inside the resume.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'dialects', 'genkit-go', '__fixtures__');
const graphOf = async (name: string) => buildRunGraph(await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`)));

const EXPECTED: Record<string, ReturnType<typeof buildRunGraph>['summary']> = {
  'go-plain-tool-round': { traces: 1, generates: 1, modelCalls: 2, toolCalls: 2, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-restart-after-approval': { traces: 3, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, responds: 0, restarts: 1, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-restart-with-input': { traces: 3, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, responds: 0, restarts: 1, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-respond-to-question': { traces: 2, generates: 2, modelCalls: 2, toolCalls: 1, interrupts: 1, responds: 1, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' },
  'go-parallel-pending-output': { traces: 3, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' },
  'go-non-object-interrupt': { traces: 1, generates: 1, modelCalls: 1, toolCalls: 1, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 1, finishReason: 'error' },
  'go-tool-throws': { traces: 1, generates: 1, modelCalls: 1, toolCalls: 1, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 1, finishReason: 'error' },
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

  it('a restart runs in a trace of its own, before the resume: drawn as the resume’s restarted call, linked to the interrupt, never as a tool run alone', async () => {
    const graph = await graphOf('go-restart-after-approval');
    const [interrupted, resume] = graph.generates;
    // The Go runner records the answer as an OTel link: the link decides, no guess.
    expect(resume.resume).toMatchObject({ answersGenerateId: interrupted.id, evidence: 'link' });
    expect(resume.resumeToolCalls).toHaveLength(1);
    expect(resume.resumeToolCalls[0].traceId).not.toBe(resume.traceId);
    expect(resume.resume!.resolutions[0]).toMatchObject({ kind: 'restart', restartedToolCallId: resume.resumeToolCalls[0].id });
    // Same input (its keys in another order): no replaced input, no note.
    expect(resume.resume!.resolutions[0].replacedInput).toBeUndefined();
    expect(resume.notes).toEqual([]);
    // One execution node (the restarted run, its span in the other trace), no second node for it as a tool alone.
    expect(graph.nodes.filter((node) => node.kind === 'tool-call').map((node) => node.id)).toEqual([resume.resumeToolCalls[0].id]);
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });

  it('a restart with a new input: the new input is shown, and genkit Go 1.4.0 keeping the old one in the history is named', async () => {
    const graph = await graphOf('go-restart-with-input');
    const resume = graph.generates[1];
    expect(resume.resume!.resolutions[0]).toMatchObject({ kind: 'restart', replacedInput: { from: 'LIS', to: 'OPO', date: '2027-06-04' } });
    expect(resume.notes.join(' ')).toMatch(/genkit Go 1\.4\.0: the restart of bookFlight ran with a new input .* keeps the original input/);
  });

  it('the last paused Go call of a file is the one answered (its rules: resume-rules.test.ts)', async () => {
    const spans = await loadTraceFile(path.join(FIXTURES, 'go-respond-to-question.otlp.json'));
    expect(resumeContextFrom(spans)).toMatchObject({ dialect: 'genkit-go', requests: [{ name: 'askUser', ref: 'seat-1', state: 'interrupted' }] });
  });
});
