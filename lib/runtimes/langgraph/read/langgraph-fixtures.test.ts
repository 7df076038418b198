import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { RunGraph, ToolCall } from '../../../graph/run-graph';
import { linkTraces, summarizeCapturedTrace } from '../../../graph/trace-sessions';
import { dialectOf, dialectTitle } from '../../index';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';
import { hitlDecisionOf } from './langgraph-words';

/**
 * Every recorded LangGraph fixture (lib/runtimes/langgraph/__fixtures__/, made by
 * scripts/fixtures/frameworks/langgraph/ under opentelemetry-instrumentation-langchain `genai-…`
 * and openinference-instrumentation-langchain `openinference-…`) drawn by the LangGraph dialect,
 * asserted against what the app itself printed while it ran (the fixture's `recorded` runs): the
 * graph summary field by field, each interrupt node by node in LangGraph's words (never an
 * error), each answer's edge to the call it answers, by interrupt id.
 */
interface LangGraphRun {
  outcome: 'interrupted' | 'completed' | 'error';
  finishReason: string | null;
  modelTurns: unknown[];
  toolsRan: { tool: string; toolCallId: string | null; status: string }[];
  pending: { interruptId: string; toolCallId: string; value: unknown }[];
  answers?: Record<string, unknown>;
  error: { type: string } | null;
}

const allToolCalls = (graph: RunGraph): ToolCall[] => graph.generates.flatMap((generate) => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)]);

/** The app's answers by kind: LangChain's approve / edit let the tool run (restart); reject / respond do not (respond). */
function answeredKinds(runs: LangGraphRun[]) {
  const decisions = runs.flatMap((run) => Object.values(run.answers ?? {}).map((value) => hitlDecisionOf(value)?.type));
  return { restarts: decisions.filter((type) => type === 'approve' || type === 'edit').length, responds: decisions.filter((type) => type === 'reject' || type === 'respond').length };
}

describe('LangGraph fixtures, against what the app did', () => {
  for (const fixtureCase of frameworkFixtureCases('langgraph')) {
    it(`${fixtureCase}: summary, interrupts and answers`, async () => {
      const spans = await loadFrameworkFixture('langgraph', fixtureCase);
      const runs = recordedRuns<LangGraphRun>('langgraph', fixtureCase).recorded.runs;
      const graph = buildRunGraph(spans);
      const last = runs.at(-1)!;
      expect(graph.summary).toStrictEqual({
        traces: runs.length,
        generates: runs.length,
        modelCalls: runs.reduce((sum, run) => sum + run.modelTurns.length, 0),
        // Every tool the app's callback saw run, a reviewed tool and the plain tool it wraps alike.
        toolCalls: runs.reduce((sum, run) => sum + run.toolsRan.length, 0),
        interrupts: runs.reduce((sum, run) => sum + run.pending.length, 0),
        ...answeredKinds(runs),
        pendingReused: 0,
        errors: runs.filter((run) => run.outcome === 'error').length,
        finishReason: last.outcome === 'error' ? 'error' : last.finishReason,
      });
      expect(graph.generates.map((generate) => generate.runtime)).toEqual(runs.map(() => 'langgraph'));
      expect(graph.generates.map((generate) => generate.status)).toEqual(runs.map((run) => (run.outcome === 'completed' ? 'ok' : run.outcome)));

      for (const pending of runs[0].pending) {
        // The interrupt: its call, paused in LangGraph's words, its interrupt id the one LangGraph gave — never an error.
        const call = allToolCalls(graph).find((candidate) => candidate.ref === pending.toolCallId && candidate.traceId === graph.generates[0].traceId)!;
        expect(call, pending.toolCallId).toBeDefined();
        expect(call).toMatchObject({ status: 'interrupted', interrupt: { pauseId: pending.interruptId, metadata: pending.value, evidence: 'exception' } });
        const node = graph.nodes.find((candidate) => candidate.id === call.id)!;
        expect(node).toMatchObject({ kind: 'tool-interrupt', tone: 'interrupted' });
        expect(node.status).toMatch(/^paused: interrupt \(in the (tool|human_review node)\)/);
        // Answered by interrupt id in the next run: the answer edge, and the answer in LangChain's words.
        const answer = runs[1]?.answers?.[pending.interruptId];
        if (answer === undefined) continue;
        const edge = graph.edges.find((candidate) => candidate.kind === 'answer' && candidate.source === call.id)!;
        expect(edge, `answer edge of ${pending.toolCallId}`).toBeDefined();
        const resolution = graph.generates[1].resume!.resolutions.find((candidate) => candidate.id === edge.target)!;
        const decision = hitlDecisionOf(answer)!.type;
        expect(resolution).toMatchObject({ pauseId: pending.interruptId, request: { ref: pending.toolCallId }, kind: decision === 'approve' || decision === 'edit' ? 'restart' : 'respond' });
        if (decision === 'reject') expect(resolution.words).toMatch(/^denied \(reject\): .* — (no tool span after it: the tool did not run|the tool returned it; the tool it wraps did not run)$/);
      }
      // The paused run is no failure: no node of it is drawn as an error.
      if (runs[0].outcome === 'interrupted') {
        expect(graph.nodes.filter((node) => node.generateId === graph.generates[0].id && node.tone === 'error')).toEqual([]);
        expect(graph.summary.errors).toBe(0);
      }
      expect(JSON.stringify(graph)).not.toMatch(/stopWhen|step limit|executed by the provider|GraphInterrupt/);
    });
  }

  it('a rejection in a review node: denied, and no tool span ran for it', async () => {
    const graph = buildRunGraph(await loadFrameworkFixture('langgraph', 'genai-review-interrupt-reject'));
    expect(graph.generates[1].resumeToolCalls).toEqual([]);
    expect(graph.generates[1].resume!.resolutions).toMatchObject([{ kind: 'respond', words: 'denied (reject): Do not book table: the user changed plans. — no tool span after it: the tool did not run' }]);
  });

  it('tool errors: the ToolNode gave the model the error, or the run failed with the Python exception (no traceback)', async () => {
    for (const instrumentation of ['genai', 'openinference']) {
      const continues = buildRunGraph(await loadFrameworkFixture('langgraph', `${instrumentation}-tool-error-continues`));
      expect(continues.generates[0].turns[0].toolCalls.find((tool) => tool.ref === 'call_weather_atlantis'), instrumentation).toMatchObject({ status: 'error', loopWentOn: true, runtimeState: { code: 'tool-error' } });
      const fails = buildRunGraph(await loadFrameworkFixture('langgraph', `${instrumentation}-tool-error-fails`));
      expect(fails.generates[0], instrumentation).toMatchObject({ status: 'error', errorMessage: 'ValueError: no weather station in Atlantis' });
    }
  });

  it('names the framework, and lists the paused trace as answered by its Command(resume) run (same thread)', async () => {
    for (const instrumentation of ['genai', 'openinference']) {
      const spans = await loadFrameworkFixture('langgraph', `${instrumentation}-tool-interrupt-approve`);
      expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set(['langgraph']));
      const traces = [...new Set(spans.map((span) => span.traceId))];
      const summaries = traces.map((traceId) => summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId)));
      expect(summaries.map((summary) => summary.runtime)).toEqual(['langgraph', 'langgraph']);
      expect(linkTraces(summaries.slice(0, 1)).statusOf(summaries[0]).status, instrumentation).toBe('interrupted');
      expect(linkTraces(summaries).statusOf(summaries[0]), instrumentation).toEqual({ status: 'answered', answeredBy: [traces[1]] });
    }
    expect(dialectTitle('langgraph')).toBe('LangGraph');
  });
});
