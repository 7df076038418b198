import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { RunGraph, ToolCall } from '../../../graph/run-graph';
import { linkTraces, summarizeCapturedTrace } from '../../../graph/trace-sessions';
import { dialectOf, dialectTitle } from '../../index';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';

/**
 * Every recorded Google ADK fixture (lib/runtimes/google-adk/__fixtures__/, made by
 * scripts/fixtures/frameworks/google-adk/) drawn by the Google ADK dialect, asserted against what
 * the app itself printed while it ran (the fixture's `recorded` runs): the graph summary field by
 * field, each pause node by node in ADK's words, each answer's edge to the call it answers.
 */
interface AdkRun {
  outcome: 'paused' | 'completed' | 'error';
  finishReason: string | null;
  toolsRan: { id: string; tool: string; status: string }[];
  pending: { kind: 'confirmation' | 'long-running'; functionCallId: string; args?: { originalFunctionCall?: { id: string } } }[];
  answers?: { id: string; name: string; response: unknown }[];
  error: { type: string; message: string } | null;
}

/** Model calls per run: not in the app's record, read from each case's description (one per model turn the scripted model answered). */
const MODEL_CALLS: Record<string, number> = {
  'confirmation-approve': 2,
  'confirmation-decline': 2,
  'confirmation-two-calls': 2,
  'long-running-rejected-result': 3,
  'long-running-result': 3,
  'parallel-round': 2,
  'request-confirmation-approve-with-payload': 3,
  'request-confirmation-approve': 3,
  'request-confirmation-decline': 3,
  'tool-error-continues': 2,
  'tool-error-fails': 1,
};

/** The tool call id a pending entry of the record stands for (a confirmation names its original call). */
const pausedCallId = (pending: AdkRun['pending'][number]) => pending.args?.originalFunctionCall?.id ?? pending.functionCallId;

const allToolCalls = (graph: RunGraph): ToolCall[] => graph.generates.flatMap((generate) => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)]);

/** How each answering run answered the paused calls: the tool ran again (restart), or not — refused, or the caller's result (respond). */
function answeredKinds(runs: AdkRun[]): { restarts: number; responds: number } {
  let restarts = 0;
  let responds = 0;
  for (const run of runs.slice(1)) {
    for (const answer of run.answers ?? []) {
      // A confirmation is answered by ADK's adk_request_confirmation call: the pause names the tool call it holds.
      const pending = runs[0].pending.find((candidate) => candidate.functionCallId === answer.id);
      const callId = pending ? pausedCallId(pending) : answer.id;
      const ran = run.toolsRan.find((tool) => tool.id === callId);
      if (ran?.status === 'success') restarts += 1;
      else responds += 1;
    }
  }
  return { restarts, responds };
}

describe('Google ADK fixtures, against what the app did', () => {
  for (const fixtureCase of frameworkFixtureCases('google-adk')) {
    it(`${fixtureCase}: summary, pauses and answers`, async () => {
      const spans = await loadFrameworkFixture('google-adk', fixtureCase);
      const { recorded } = recordedRuns<AdkRun>('google-adk', fixtureCase);
      const runs = recorded.runs;
      const graph = buildRunGraph(spans);
      const last = runs.at(-1)!;
      // The app logs a tool by its response: the tool whose exception failed the run has none.
      const failedTools = runs.filter((run) => run.error !== null).length;
      expect(graph.summary).toStrictEqual({
        traces: runs.length,
        generates: runs.length,
        modelCalls: MODEL_CALLS[fixtureCase],
        toolCalls: runs.reduce((sum, run) => sum + run.toolsRan.length, 0) + failedTools,
        interrupts: runs.reduce((sum, run) => sum + run.pending.length, 0),
        ...answeredKinds(runs),
        pendingReused: 0,
        errors: runs.filter((run) => run.outcome === 'error').length,
        finishReason: last.outcome === 'error' ? 'error' : last.finishReason?.toLowerCase(),
      });
      expect(graph.generates.map((generate) => generate.runtime)).toEqual(runs.map(() => 'google-adk'));
      expect(graph.generates.map((generate) => generate.status)).toEqual(runs.map((run) => (run.outcome === 'paused' ? 'interrupted' : run.outcome === 'error' ? 'error' : 'ok')));

      // Each pause: its call's node, paused in ADK's words — never an error, never a tool that ran.
      for (const pending of runs[0].pending) {
        const call = allToolCalls(graph).find((candidate) => candidate.ref === pausedCallId(pending) && candidate.traceId === graph.generates[0].traceId)!;
        expect(call, pausedCallId(pending)).toBeDefined();
        expect(call.status).toBe('interrupted');
        const node = graph.nodes.find((candidate) => candidate.id === call.id)!;
        expect(node.kind).toBe('tool-interrupt');
        expect(node.status).toMatch(pending.kind === 'long-running' ? /^paused: long-running/ : /^paused: (approval required|confirmation requested)/);
        // Answered in the next run: an answer edge from the paused call to the answer.
        if (runs.length > 1) {
          const edge = graph.edges.find((candidate) => candidate.kind === 'answer' && candidate.source === call.id);
          expect(edge, `answer edge of ${call.ref}`).toBeDefined();
          expect(edge!.target.startsWith(graph.generates[1].id)).toBe(true);
          expect(graph.generates[1].resume?.answersGenerateId).toBe(graph.generates[0].id);
        }
      }
      // No ADK-foreign words, no merged-response call, no lost call id.
      const text = JSON.stringify(graph);
      expect(text).not.toMatch(/stopWhen|step limit|provider|merged tools|<not specified>/);
    });
  }

  it('a refused confirmation is drawn as denied, with the evidence that the tool did not run', async () => {
    const graph = buildRunGraph(await loadFrameworkFixture('google-adk', 'confirmation-decline'));
    const [resolution] = graph.generates[1].resume!.resolutions;
    expect(resolution).toMatchObject({ kind: 'respond', words: expect.stringMatching(/^denied \(confirmed: false\) — no tool ran/) });
    const span = graph.generates[1].resumeToolCalls[0];
    expect(span).toMatchObject({ status: 'not-run', runtimeState: { code: 'denied' } });
    expect(graph.summary.errors).toBe(0);
  });

  it('a tool error the callback handled is handed to the model in ADK’s words; one no callback handled fails the run with its error', async () => {
    const continues = buildRunGraph(await loadFrameworkFixture('google-adk', 'tool-error-continues'));
    expect(continues.generates[0].turns[0].toolCalls[0]).toMatchObject({ ref: 'call_weather_atlantis', status: 'error', loopWentOn: true, errorMessage: 'ValueError: no weather station in Atlantis', runtimeState: { code: 'TOOL_ERROR' } });
    const fails = buildRunGraph(await loadFrameworkFixture('google-adk', 'tool-error-fails'));
    // The failed span lost its call id (`<not specified>`): it is paired by name and arguments.
    expect(fails.generates[0].turns[0].toolCalls.map((tool) => [tool.ref, tool.status])).toEqual([
      ['call_weather_atlantis', 'error'],
      ['call_weather_paris', 'ok'],
    ]);
    expect(fails.generates[0]).toMatchObject({ status: 'error', errorStatus: 'ValueError' });
  });

  it('request_confirmation: the paused run alone shows no pause; with its answer it is paused in ADK’s words, and listed as answered', async () => {
    const spans = await loadFrameworkFixture('google-adk', 'request-confirmation-approve');
    const traces = [...new Set(spans.map((span) => span.traceId))];
    const alone = buildRunGraph(spans.filter((span) => span.traceId === traces[0]));
    expect(alone.generates[0].status).toBe('ok');
    const summaries = traces.map((traceId) => summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId)));
    expect(linkTraces(summaries.slice(0, 1)).statusOf(summaries[0]).status).toBe('ok');
    expect(linkTraces(summaries).statusOf(summaries[0])).toEqual({ status: 'answered', answeredBy: [traces[1]] });
    const both = buildRunGraph(spans);
    expect(both.generates[0].turns[0].toolCalls[0]).toMatchObject({ status: 'interrupted', interrupt: { pausedAs: 'confirmation requested (tool_context.request_confirmation)', evidence: 'answer' } });
  });

  it('names the framework: the dialect of every span, its title, the trace list row', async () => {
    const spans = await loadFrameworkFixture('google-adk', 'confirmation-approve');
    expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set(['google-adk']));
    expect(dialectTitle('google-adk')).toBe('Google ADK');
    const traceId = spans[0].traceId;
    expect(summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId))).toMatchObject({ runtime: 'google-adk', title: 'dinner_agent' });
  });
});
