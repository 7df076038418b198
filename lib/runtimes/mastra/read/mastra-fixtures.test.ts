import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { GenerateCall, GraphSummary, ToolCall } from '../../../graph/run-graph';
import { renderGraphText } from '../../../graph/render-graph-text';
import { dialectOf, dialectTitle } from '../../index';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';
import { MASTRA_DIALECT_ID } from '.';

/**
 * Every recorded Mastra fixture (lib/runtimes/mastra/__fixtures__/, made by
 * scripts/fixtures/frameworks/mastra/ with @mastra/core 1.71 and its OTel exporter) read by the
 * Mastra dialect and asserted against what the app recorded while it ran (`recorded`): one
 * generate per run (the answering runs too, though Mastra records them inside the paused run's
 * trace), its outcome and finish reason in Mastra's words, every tool that ran, the call each
 * paused run waits on — approval required or suspended, never an error, a tool that ran or
 * "never ran" — every answer tied to the pause it answered, and the spans Mastra never ended
 * drawn as what they are.
 */
interface RecordedRun {
  label: string;
  traceId: string;
  outcome: 'suspended' | 'completed' | 'aborted' | 'tripwire' | 'error';
  finishReason: string;
  pending: { kind: 'approval' | 'suspended'; toolCallId: string; toolName: string; args: unknown }[];
  toolsRan: { tool: string; toolCallId: string; status: 'success' | 'error' | 'suspended' }[];
  text: string | null;
  answer?: { kind: 'approve' | 'decline' | 'resume'; toolCallId: string; reason?: string; resumeData?: unknown };
  tripwire: { reason: string; processorId: string } | null;
}
interface Recorded {
  runs: RecordedRun[];
  spansEnded: number;
  spansNeverEnded: { spanId: string; type: string; name: string }[];
}

const CASES = frameworkFixtureCases('mastra');
/** Model calls: the scripted model's replies each case consumed (a tripwire's run never arrives: none is drawn). */
const MODEL_CALLS: Record<string, number> = { 'tool-error-tripwire': 0 };
const STATUS = { ok: 'ok', success: 'ok', error: 'error', suspended: 'interrupted' } as const;

const toolCallsOf = (generate: GenerateCall): ToolCall[] => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)];
const drawn = (runs: RecordedRun[]) => runs.filter((run) => run.outcome !== 'tripwire');

function expectedSummary(fixtureCase: string, runs: RecordedRun[]): GraphSummary {
  const answers = runs.flatMap((run) => (run.answer ? [{ answer: run.answer, ran: run.toolsRan.some((tool) => tool.toolCallId === run.answer!.toolCallId) }] : []));
  const last = drawn(runs).at(-1);
  return {
    traces: new Set(runs.map((run) => run.traceId)).size,
    generates: drawn(runs).length,
    modelCalls: MODEL_CALLS[fixtureCase] ?? 2,
    toolCalls: runs.reduce((count, run) => count + run.toolsRan.length, 0),
    interrupts: runs.reduce((count, run) => count + run.pending.length, 0),
    responds: answers.filter(({ ran }) => !ran).length,
    restarts: answers.filter(({ ran }) => ran).length,
    pendingReused: 0,
    errors: runs.filter((run) => run.outcome === 'error').length,
    finishReason: last?.finishReason ?? null,
  };
}

describe('Mastra fixtures: the graph says what the app did', () => {
  it('has the eight recorded cases', () => {
    expect(CASES).toEqual(['approval-all-approve', 'approval-approve', 'approval-decline', 'parallel-round', 'suspend-resume', 'tool-error-continues', 'tool-error-fails', 'tool-error-tripwire']);
  });

  for (const fixtureCase of CASES) {
    describe(fixtureCase, () => {
      const load = async () => {
        const spans = await loadFrameworkFixture('mastra', fixtureCase);
        const recorded = recordedRuns<RecordedRun>('mastra', fixtureCase).recorded as unknown as Recorded;
        return { spans, recorded, runs: recorded.runs, graph: buildRunGraph(spans) };
      };

      it('is read by the Mastra dialect, every span, and its summary is what the app did', async () => {
        const { spans, recorded, runs, graph } = await load();
        expect(spans).toHaveLength(recorded.spansEnded);
        expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set([MASTRA_DIALECT_ID]));
        expect(graph.generates.map((generate) => [generate.runtime, generate.traceId])).toEqual(drawn(runs).map((run) => [MASTRA_DIALECT_ID, run.traceId]));
        expect(graph.summary).toStrictEqual(expectedSummary(fixtureCase, runs));
      });

      it('each run: its outcome and finish reason in Mastra’s words, its text, and the tools that ran', async () => {
        const { runs, graph } = await load();
        drawn(runs).forEach((run, position) => {
          const generate = graph.generates[position];
          expect(generate.status).toBe({ suspended: 'interrupted', completed: 'ok', aborted: 'ok', error: 'error' }[run.outcome as 'suspended' | 'completed' | 'aborted' | 'error']);
          expect(generate.finishReason).toBe(run.finishReason);
          expect(generate.text ?? null).toBe(run.outcome === 'completed' ? run.text : null);
          if (run.outcome === 'aborted') expect(generate.runtimeState).toMatchObject({ code: 'aborted', words: expect.stringMatching(/^aborted — /) });
          const ran = toolCallsOf(generate).filter((call) => call.spanId !== undefined);
          expect(ran.map((call) => [call.ref, call.name, call.status])).toEqual(run.toolsRan.map((tool) => [tool.toolCallId, tool.tool, STATUS[tool.status]]));
        });
      });

      it('each pause is drawn paused in Mastra’s words (approval required, suspended) on the call the run waits on', async () => {
        const { runs, graph } = await load();
        drawn(runs).forEach((run, position) => {
          const generate = graph.generates[position];
          const paused = toolCallsOf(generate).filter((call) => call.status === 'interrupted');
          expect(paused.map((call) => call.ref)).toEqual(run.pending.map((pending) => pending.toolCallId));
          expect(generate.pendingInterrupts).toEqual(run.pending.map((pending) => ({ name: pending.toolName, ref: pending.toolCallId, input: pending.args })));
          for (const pending of run.pending) {
            const call = paused.find((candidate) => candidate.ref === pending.toolCallId)!;
            expect(call.interrupt!.pausedAs).toMatch(pending.kind === 'approval' ? /^approval required/ : /^suspended/);
            // An approval: the tool did not run (no span). A suspension: the tool's span, which ended with no result.
            expect(call.spanId !== undefined).toBe(pending.kind === 'suspended');
            expect(graph.nodes.find((node) => node.id === call.id)).toMatchObject({ kind: 'tool-interrupt', tone: 'interrupted', status: expect.stringMatching(/^paused: (approval required|suspended)/) });
          }
        });
      });

      it('each answering run is tied to the pause it answered, by run id and tool call id: approved / resumed and ran = restart, declined = respond', async () => {
        const { runs, graph } = await load();
        const expectedEdges: [string, string][] = [];
        drawn(runs).forEach((run, position) => {
          const generate = graph.generates[position];
          if (!run.answer) {
            expect(generate.resume).toBeUndefined();
            return;
          }
          const paused = graph.generates[position - 1];
          const call = toolCallsOf(paused).find((candidate) => candidate.ref === run.answer!.toolCallId && candidate.status === 'interrupted')!;
          expect(generate.resume).toMatchObject({ answersGenerateId: paused.id });
          expect(generate.resume!.resolutions).toHaveLength(1);
          const [resolution] = generate.resume!.resolutions;
          expect(resolution.answersToolCallId).toBe(call.id);
          const ranTool = generate.resumeToolCalls.find((tool) => tool.ref === run.answer!.toolCallId && tool.spanId !== undefined);
          if (run.answer.kind === 'decline') {
            expect(resolution).toMatchObject({ kind: 'respond', output: run.answer.reason, words: expect.stringMatching(/^declined \(declineToolCall\): .* — the tool did not run \(no execute_tool span\)/) });
            expect(ranTool).toBeUndefined();
          } else {
            expect(resolution).toMatchObject({ kind: 'restart', restartedToolCallId: ranTool!.id });
            if (run.answer.kind === 'resume') expect(resolution).toMatchObject({ resumed: run.answer.resumeData, words: expect.stringMatching(/^resumed \(resumeStream\) with /) });
            else expect(resolution.words).toBe('approved (approveToolCall) — the tool ran');
          }
          expect(call.resolvedBy).toEqual([{ generateId: generate.id, kind: resolution.kind, nodeId: resolution.id }]);
          expectedEdges.push([call.id, resolution.id]);
        });
        expect(graph.edges.filter((edge) => edge.kind === 'answer').map((edge) => [edge.source, edge.target])).toEqual(expectedEdges);
      });

      it('spans Mastra never ended are not in the trace, and what hangs from them says so', async () => {
        const { spans, recorded, graph } = await load();
        const never = new Set(recorded.spansNeverEnded.map((span) => span.spanId));
        expect(spans.filter((span) => never.has(span.spanId))).toEqual([]);
        const notes = [...graph.generates.flatMap((generate) => generate.notes), ...graph.nodes.flatMap((node) => (node.generateId === '' ? (node.notes ?? []) : []))];
        if (never.size === 0) {
          expect(notes).toEqual([]);
          return;
        }
        // Every span that hangs from a never-ended one is accounted for in a note, and nothing is drawn running.
        const orphans = spans.filter((span) => span.parentSpanId !== undefined && never.has(span.parentSpanId));
        expect(orphans.length).toBeGreaterThan(0);
        expect(notes.length).toBeGreaterThan(0);
        expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);
      });
    });
  }
});

describe('Mastra’s words', () => {
  const graphOf = async (fixtureCase: string) => buildRunGraph(await loadFrameworkFixture('mastra', fixtureCase));

  it('names the framework: the dialect’s title and Graph JSON runtime', async () => {
    expect(dialectTitle(MASTRA_DIALECT_ID)).toBe('Mastra');
    expect((await graphOf('parallel-round')).generates[0].runtime).toBe('mastra');
  });

  it('the answering runs Mastra nests in the paused run’s trace are runs of their own: the paused run does not hold them', async () => {
    const graph = await graphOf('approval-all-approve');
    const [first, middle, last] = graph.generates;
    expect(first.turns).toHaveLength(1);
    expect(toolCallsOf(first).map((call) => call.ref)).toEqual(['call_weather_paris']);
    // The middle run answered Paris and paused on Berlin, a call of the first run's step: paused beside the tool it ran.
    expect(middle.resumeToolCalls.map((call) => [call.ref, call.status])).toEqual([
      ['call_weather_paris', 'ok'],
      ['call_weather_berlin', 'interrupted'],
    ]);
    expect(middle.notes).toEqual([expect.stringMatching(/^Span d08d9ac31714fbf9 of this run never arrived: Mastra did not end it .* 1 span\(s\) of the run hang from it \(model_chunk\)/)]);
    expect(last.resume?.answersGenerateId).toBe(middle.id);
  });

  it('a tripwire: the tools are drawn outside any run, the failed one in Mastra’s words, both saying why their run never arrived', async () => {
    const graph = await graphOf('tool-error-tripwire');
    const nodes = graph.nodes.filter((node) => node.generateId === '');
    expect(nodes.map((node) => [node.label, node.tone, node.status])).toEqual([
      ['get_weather#call_weather_atlantis', 'error', 'failed — the processor abort-on-tool-error tripped Mastra\'s tripwire on it and ended the run'],
      ['get_weather#call_weather_paris', 'ok', 'ok'],
    ]);
    for (const node of nodes) expect(node.notes).toEqual([expect.stringMatching(/^An output processor tripped Mastra's tripwire \(abort-on-tool-error: "tool get_weather failed: no weather station in Atlantis"\)/)]);
  });

  it('the detail panel shows what a run and a step sent and got, from Mastra’s own attributes', async () => {
    const spans = await loadFrameworkFixture('mastra', 'parallel-round');
    const step = spans.find((span) => span.attributes['mastra.span.type'] === 'model_step')!;
    const values = dialectOf(step)!.spanValues(step, false);
    expect(values.attributeKeys).toEqual(['mastra.model_step.input', 'mastra.model_step.output']);
    expect(String(values.output)).toContain('"toolCallId":"call_weather_paris"');
    const run = spans.find((span) => span.attributes['mastra.span.type'] === 'agent_run')!;
    expect(dialectOf(run)!.spanValues(run, false).input).toBe('What is the weather in Paris and in Berlin?');
  });

  it('the graph text lists a paused call a run holds before its first model step', async () => {
    expect(renderGraphText(await graphOf('approval-all-approve'))).toMatch(/⏸ get_weather#call_weather_berlin {2}paused — approval required \(requireApproval\)/);
  });
});
