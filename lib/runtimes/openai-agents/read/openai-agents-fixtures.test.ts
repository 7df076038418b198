import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { GraphSummary, RunGraph, ToolCall } from '../../../graph/run-graph';
import { dialectOf } from '../../index';
import { expectAnswersLinked } from '../../testing/expect-answers-linked';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';
import { OPENAI_AGENTS_DIALECT_ID } from './dialect-id';

/**
 * Every OpenAI Agents SDK fixture (lib/runtimes/openai-agents/__fixtures__/), read as the app
 * ran it: the graph's summary field by field against what the app recorded of each run
 * (`recorded.runs`: model turns, the calls the model made, tool bodies run, approvals left
 * pending, answers given, failures), each pause node by node in the SDK's words (a tool span
 * without a result is a pause, never a tool that ran), each answer tied across traces to the
 * call it answers by an answer edge although no span carries a call id.
 */
interface Pending {
  toolCallId: string;
  itemId: string;
  toolName: string;
  arguments: unknown;
}
interface Ran {
  toolCallId: string;
  toolName: string;
  status: 'ok' | 'error';
  raised?: string;
  result?: unknown;
}
interface Answer {
  toolCallId: string;
  answer: 'approve' | 'reject';
  message?: string;
}
interface Run {
  label: string;
  outcome: 'completed' | 'paused' | 'failed';
  finishReason: string | null;
  modelTurns?: number;
  modelRequests?: number;
  toolCalls?: { toolCallId: string; toolName: string }[];
  pending: Pending[];
  toolsRun: Ran[];
  answers?: Answer[];
  output?: string | null;
  error?: { type: string; message: string } | null;
}

/** The SDK's default rejection text (RunState.reject without a message). */
const NOT_APPROVED = 'Tool execution was not approved.';

/** The calls a run left pending that its own model asked for: they have a tool span (without a result); those pending again after a resume have none. */
const pausedHere = (run: Run) => run.pending.filter((pending) => (run.toolCalls ?? []).some((call) => call.toolCallId === pending.toolCallId));

/** The summary the runs make: a trace and a call per run; a tool span per tool body run and per call paused where the model asked for it. */
function expectedSummary(runs: readonly Run[]): GraphSummary {
  const answers = runs.flatMap((run) => run.answers ?? []);
  const last = runs[runs.length - 1];
  return {
    traces: runs.length,
    generates: runs.length,
    modelCalls: runs.reduce((sum, run) => sum + (run.modelTurns ?? run.modelRequests ?? 0), 0),
    toolCalls: runs.reduce((sum, run) => sum + run.toolsRun.length + pausedHere(run).length, 0),
    interrupts: runs.reduce((sum, run) => sum + pausedHere(run).length, 0),
    responds: answers.filter((answer) => answer.answer === 'reject').length,
    restarts: answers.filter((answer) => answer.answer === 'approve').length,
    pendingReused: 0,
    errors: runs.filter((run) => run.outcome === 'failed').length,
    finishReason: last.outcome === 'failed' ? 'error' : last.finishReason,
  };
}

const callsOf = (graph: RunGraph, position: number): ToolCall[] => graph.generates[position].turns.flatMap((turn) => turn.toolCalls);

describe('OpenAI Agents SDK fixtures, read as the app ran them', () => {
  for (const fixtureCase of frameworkFixtureCases('openai-agents')) {
    it(`${fixtureCase}: the summary, each pause and each answer as the app recorded them`, async () => {
      const spans = await loadFrameworkFixture('openai-agents', fixtureCase);
      const runs = recordedRuns<Run>('openai-agents', fixtureCase).recorded.runs;
      expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set([OPENAI_AGENTS_DIALECT_ID]));
      const graph = buildRunGraph(spans);
      expect(graph.summary).toStrictEqual(expectedSummary(runs));
      expect(graph.generates.map((generate) => generate.runtime)).toEqual(runs.map(() => OPENAI_AGENTS_DIALECT_ID));
      expect(JSON.stringify(graph)).not.toMatch(/stopWhen|step limit|executed by the provider|tool-approval|not executed/);

      runs.forEach((run, position) => {
        const generate = graph.generates[position];
        const pausedAgain = run.outcome === 'paused' && pausedHere(run).length === 0;
        expect(generate.status, run.label).toBe(run.outcome === 'completed' || pausedAgain ? 'ok' : run.outcome === 'paused' ? 'interrupted' : 'error');
        if (run.outcome === 'failed') expect(generate.errorMessage).toBe(`Error in agent run: ${run.error!.message}`);
        else if (!pausedAgain) expect(generate.finishReason).toBe(run.finishReason);
        if (run.outcome === 'completed') expect(generate.text).toBe(run.output);
        // A run that answered some approvals and made no model call paused again on the rest: said in the SDK's words.
        if (pausedAgain) expect(generate.runtimeState?.words).toBe(`paused again: ${run.pending.map((pending) => `${pending.toolName}#${pending.toolCallId}`).join(', ')} still wait${run.pending.length === 1 ? 's' : ''} for state.approve / state.reject (no model call)`);
        for (const pending of pausedHere(run)) {
          const call = callsOf(graph, position).find((candidate) => candidate.ref === pending.toolCallId);
          expect(call, `${run.label} ${pending.toolCallId}`).toMatchObject({ name: pending.toolName, status: 'interrupted', input: pending.arguments, interrupt: { pausedAs: 'approval required (needs_approval)' } });
          // Its tool span: it has one, and still it never ran (no output).
          expect(call!.spanId).toBeDefined();
          expect(call!.output).toBeUndefined();
        }
        for (const ran of run.toolsRun) {
          const call = [...generate.resumeToolCalls, ...callsOf(graph, position)].find((candidate) => candidate.ref === ran.toolCallId && candidate.spanId !== undefined);
          expect(call, `${run.label} ${ran.toolCallId}`).toMatchObject({ name: ran.toolName, status: ran.status });
          if (ran.status === 'ok') expect(call!.output).toEqual(ran.result);
          else if (run.outcome !== 'failed') expect(call).toMatchObject({ loopWentOn: true, runtimeState: { code: 'tool-error' } });
        }
        if (position === 0) return;
        const answers = run.answers ?? [];
        const linked = expectAnswersLinked({ graph, position, toolCallIds: answers.map((answer) => answer.toolCallId) });
        for (const [at, answer] of answers.entries()) {
          const { resolution, paused } = linked[at];
          if (answer.answer === 'approve') {
            const rerun = generate.resumeToolCalls.find((call) => call.id === resolution.restartedToolCallId);
            expect(rerun).toMatchObject({ name: paused.name, ref: answer.toolCallId, input: paused.input, status: 'ok' });
            expect(resolution).toMatchObject({ kind: 'restart', words: 'approved (state.approve) — the tool ran in the answering run' });
          } else {
            // A rejection: the tool did not run — no tool span of it in the answering run; the model got the rejection.
            expect(generate.resumeToolCalls.some((call) => call.ref === answer.toolCallId)).toBe(false);
            expect(resolution).toMatchObject({ kind: 'respond', output: answer.message ?? NOT_APPROVED, words: 'rejected (state.reject) — the tool did not run: no tool span in the answering run' });
          }
        }
        // Tied by the history the answering run continues, when it made a model call.
        expect(generate.resume?.evidence).toBe(generate.turns.length > 0 ? 'history' : 'requests');
      });
    });
  }
});
