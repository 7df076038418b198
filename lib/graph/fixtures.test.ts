import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { buildRunGraph } from './build-run-graph';
import type { GraphSummary, RunGraph } from './run-graph';

/**
 * Fixtures recorded from real genkit 1.42 runs (scripts/fixtures/genkit-js-fixtures.ts):
 * every case of the run graph and every known resume bug. Each summary is asserted whole,
 * field by field, against what genkit did in that run (see the fixtures' README).
 */
const fixture = async (name: string): Promise<RunGraph> =>
  buildRunGraph(await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`)));

type Row = [traces: number, generates: number, modelCalls: number, toolCalls: number, interrupts: number, responds: number, restarts: number, pendingReused: number, errors: number, finishReason: string | null];

const EXPECTED: Record<string, Row> = {
  'plain-round': [1, 1, 2, 2, 0, 0, 0, 0, 0, 'stop'],
  'interrupt-restart': [2, 2, 2, 2, 1, 0, 1, 0, 0, 'stop'],
  'interrupt-respond': [2, 2, 2, 1, 1, 1, 0, 0, 0, 'stop'],
  'interrupt-no-metadata': [2, 2, 2, 3, 2, 1, 1, 0, 0, 'stop'],
  'pending-output': [2, 2, 2, 3, 1, 0, 1, 1, 0, 'stop'],
  'multi-round': [1, 1, 5, 4, 0, 0, 0, 0, 0, 'stop'],
  'tool-error': [1, 1, 1, 1, 0, 0, 0, 0, 1, 'error'],
  'unknown-tool': [1, 1, 1, 0, 0, 0, 0, 0, 1, 'error'],
  'invalid-input': [1, 1, 1, 0, 0, 0, 0, 0, 1, 'error'],
  'max-turns': [1, 1, 3, 2, 0, 0, 0, 0, 1, 'error'],
  'unanswered-interrupt': [2, 2, 1, 2, 2, 1, 0, 0, 1, 'error'],
  'bug1-restart-reinterrupts': [2, 2, 1, 2, 2, 0, 1, 0, 1, 'error'],
  'bug2-replace-input': [2, 2, 2, 2, 1, 0, 1, 0, 0, 'stop'],
  'bug3-mutated-messages': [3, 3, 2, 4, 1, 0, 2, 1, 1, 'error'],
  'bug4-no-ref': [2, 2, 2, 2, 2, 2, 0, 0, 0, 'stop'],
  'bug5-tool-alone': [1, 0, 0, 1, 1, 0, 0, 0, 0, null],
  'flow-two-generates': [1, 2, 3, 2, 1, 0, 0, 0, 0, 'interrupted'],
  'reflection-generate': [1, 1, 2, 1, 0, 0, 0, 0, 0, 'stop'],
  'two-unrelated-runs': [2, 2, 4, 2, 0, 0, 0, 0, 0, 'stop'],
};

function toSummary(row: Row): GraphSummary {
  const [traces, generates, modelCalls, toolCalls, interrupts, responds, restarts, pendingReused, errors, finishReason] = row;
  return { traces, generates, modelCalls, toolCalls, interrupts, responds, restarts, pendingReused, errors, finishReason };
}

describe('Graph JSON summary of every fixture', () => {
  for (const [name, row] of Object.entries(EXPECTED)) {
    it(`${name}`, async () => {
      const graph = await fixture(name);
      // toStrictEqual: exactly these keys, as docs/architecture.md defines the summary.
      expect(graph.summary).toStrictEqual(toSummary(row));
    });
  }
});

describe('what each fixture must show', () => {
  it('interrupts without metadata are still interrupts (from the exception event or the output message)', async () => {
    const graph = await fixture('interrupt-no-metadata');
    const interrupted = graph.generates[0].turns[0].toolCalls.filter((call) => call.status === 'interrupted');
    expect(interrupted).toHaveLength(2);
    for (const call of interrupted) {
      expect(call.interrupt?.evidence).not.toBe('attribute');
      expect(call.interrupt?.metadata).toBe(true);
      expect(call.resolvedBy).toHaveLength(1);
    }
    expect(graph.generates[1].resume?.resolutions.map((resolution) => resolution.kind).sort()).toEqual(['respond', 'restart']);
  });

  it('invalid-input: the schema failure is shown at the request that never ran, with genkit INVALID_ARGUMENT', async () => {
    const graph = await fixture('invalid-input');
    const [generate] = graph.generates;
    expect(generate.errorStatus).toBe('INVALID_ARGUMENT');
    expect(generate.errorMessage).toContain('Schema validation failed');
    expect(generate.turns[0].toolCalls[0]).toMatchObject({ status: 'not-run', input: { a: 'one' } });
  });

  it('max-turns: ABORTED after the last allowed round', async () => {
    const graph = await fixture('max-turns');
    expect(graph.generates[0].errorStatus).toBe('ABORTED');
    expect(graph.generates[0].errorMessage).toContain('Exceeded maximum tool call iterations');
    expect(graph.nodes.find((node) => node.kind === 'failure')?.label).toBe('ABORTED');
  });

  it('unanswered-interrupt: the unanswered request is named and the resume fails with INVALID_ARGUMENT', async () => {
    const graph = await fixture('unanswered-interrupt');
    const resume = graph.generates[1];
    expect(resume.errorStatus).toBe('INVALID_ARGUMENT');
    expect(resume.resume?.resolutions.map((resolution) => [resolution.request.ref, resolution.kind])).toEqual([
      ['q1', 'respond'],
      ['q2', 'unresolved'],
    ]);
    expect(graph.nodes.find((node) => node.kind === 'resume-unresolved')?.tone).toBe('error');
  });

  it('bug 1: the restart that interrupts again, then genkit’s TypeError, named as bug 1', async () => {
    const graph = await fixture('bug1-restart-reinterrupts');
    const resume = graph.generates[1];
    expect(resume.errorMessage).toContain("Cannot read properties of undefined (reading 'tools')");
    expect(resume.resumeToolCalls[0]).toMatchObject({ status: 'interrupted', restarted: true });
    expect(resume.notes.join()).toContain('bug 1');
  });

  it('bug 2: replaceInput is shown with its new input and named', async () => {
    const graph = await fixture('bug2-replace-input');
    const [restart] = graph.generates[1].resume!.resolutions;
    expect(restart.kind).toBe('restart');
    expect(restart.replacedInput).toBeDefined();
    expect(graph.generates[1].resumeToolCalls[0].input).toEqual(restart.replacedInput);
    expect(graph.generates[1].notes.join()).toContain('bug 2');
  });

  it('bug 3: the retried resume links to the same interrupt and is named as bug 3', async () => {
    const graph = await fixture('bug3-mutated-messages');
    const [original, first, retry] = graph.generates;
    expect(first.resume?.answersGenerateId).toBe(original.id);
    expect(retry.resume?.answersGenerateId).toBe(original.id);
    expect(retry.status).toBe('error');
    expect(retry.notes.join()).toContain('bug 3');
    // Two alternative answers to one interrupt: two dashed edges from it.
    const transfer = original.turns[0].toolCalls.find((call) => call.status === 'interrupted')!;
    expect(graph.edges.filter((edge) => edge.kind === 'answer' && edge.source === transfer.id)).toHaveLength(2);
  });

  it('bug 4: two ref-less interrupts of one tool are told apart in the graph and named', async () => {
    const graph = await fixture('bug4-no-ref');
    const answers = graph.edges.filter((edge) => edge.kind === 'answer');
    expect(answers).toHaveLength(2);
    expect(new Set(answers.map((edge) => edge.source)).size).toBe(2);
    expect(graph.generates[0].notes.join()).toContain('bug 4');
  });

  it('bug 5: a tool run on its own is drawn with its interrupt, outside any generate', async () => {
    const graph = await fixture('bug5-tool-alone');
    expect(graph.nodes).toHaveLength(1);
    expect(graph.nodes[0]).toMatchObject({ kind: 'tool-interrupt', generateId: '' });
    expect(graph.nodes[0].notes?.join()).toContain('bug 5');
  });

  it('a flow holding two generates: both top-level, both inside the flow', async () => {
    const graph = await fixture('flow-two-generates');
    const [first, second] = graph.generates;
    expect(first.flowSpanId).toBeDefined();
    expect(second.flowSpanId).toBe(first.flowSpanId);
    expect([first.status, second.status]).toEqual(['ok', 'interrupted']);
  });

  it('a generate run through the reflection API (action + subtype util) is a generate', async () => {
    const graph = await fixture('reflection-generate');
    expect(graph.generates).toHaveLength(1);
    expect(graph.generates[0].turns).toHaveLength(2);
  });

  it('two unrelated runs sharing tool names and refs are not linked', async () => {
    const graph = await fixture('two-unrelated-runs');
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(0);
    expect(graph.generates.every((generate) => generate.resume === undefined)).toBe(true);
  });

  it('no fixture shows an interrupt as a failure', async () => {
    for (const name of Object.keys(EXPECTED)) {
      const graph = await fixture(name);
      for (const node of graph.nodes.filter((candidate) => candidate.kind === 'tool-interrupt')) {
        expect(node.tone, `${name}: ${node.label}`).toBe('interrupted');
        expect(node.status).not.toMatch(/fail/);
      }
    }
  });
});
