import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { GraphSummary, RunGraph, ToolCall } from '../../../graph/run-graph';
import { dialectOf } from '../../index';
import { expectAnswersLinked } from '../../testing/expect-answers-linked';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';
import { PYDANTIC_AI_DIALECT_ID } from './dialect-id';

/**
 * Every Pydantic AI fixture (lib/runtimes/pydantic-ai/__fixtures__/, formats 5 and 6), read as
 * the app ran it: the graph's summary field by field against what the app recorded of each run
 * (`recorded.runs`: model turns, tool bodies started, calls left pending, answers given,
 * failures), each pause node by node in Pydantic AI's words, each answer tied to the call it
 * answers by an answer edge — and nothing in another runtime's words.
 */
interface Pending {
  toolCallId: string;
  toolName: string;
  args: unknown;
  kind: 'approval' | 'external' | 'question';
}
interface Ran {
  toolCallId: string;
  toolName: string;
  status: 'ok' | 'error' | 'paused';
  raised?: string;
  args?: unknown;
}
interface Answer {
  toolCallId: string;
  answer: 'approve' | 'deny' | 'result' | 'model-retry' | 'tool-failed';
  message?: string;
  value?: unknown;
}
interface Run {
  label: string;
  outcome: 'completed' | 'paused' | 'failed';
  finishReason: string | null;
  modelTurns?: number;
  toolCalls?: { toolCallId: string }[];
  pending: Pending[];
  toolsRun: Ran[];
  answers?: Answer[];
  output?: string | null;
  error?: { type: string; message: string } | null;
}

const RESTART_ANSWERS = new Set(['approve']);

/**
 * A failed run's record has no model turns: Pydantic AI asks the model once, then once more
 * after each tool that asked for a retry (ModelRetry) — all but the last tool, whose failure
 * ended the run.
 */
function modelCallsOf(run: Run): number {
  if (run.modelTurns !== undefined) return run.modelTurns;
  return 1 + run.toolsRun.slice(0, -1).filter((tool) => tool.raised === 'ModelRetry').length;
}

/** The summary the runs make: traces and calls one per run; tool spans one per tool body started; a pause per pending call; an answer per answer of a later run. */
function expectedSummary(runs: readonly Run[]): GraphSummary {
  const answers = runs.slice(1).flatMap((run) => run.answers ?? []);
  const last = runs[runs.length - 1];
  return {
    traces: runs.length,
    generates: runs.length,
    modelCalls: runs.reduce((sum, run) => sum + modelCallsOf(run), 0),
    toolCalls: runs.reduce((sum, run) => sum + run.toolsRun.length, 0),
    interrupts: runs.reduce((sum, run) => sum + run.pending.length, 0),
    responds: answers.filter((answer) => !RESTART_ANSWERS.has(answer.answer)).length,
    restarts: answers.filter((answer) => RESTART_ANSWERS.has(answer.answer)).length,
    pendingReused: 0,
    errors: runs.filter((run) => run.outcome === 'failed').length,
    finishReason: last.outcome === 'failed' ? 'error' : last.finishReason,
  };
}

/** Pydantic AI's words for a pending call: by what it waits for and whether its tool body ran (raised) or had no span. */
function pausedAsOf(pending: Pending, ran: Ran | undefined): string {
  if (pending.kind === 'question') return 'deferred: question (CallDeferred)';
  if (pending.kind === 'approval') return ran?.raised === 'ApprovalRequired' ? 'approval required (ApprovalRequired)' : 'approval required (requires_approval)';
  return ran?.raised === 'CallDeferred' ? 'deferred (CallDeferred)' : 'deferred (external tool)';
}

const callsOf = (graph: RunGraph, position: number): ToolCall[] => graph.generates[position].turns.flatMap((turn) => turn.toolCalls);

describe('Pydantic AI fixtures, read as the app ran them', () => {
  const cases = frameworkFixtureCases('pydantic-ai');

  it('both instrumentation formats are recorded, every scenario in each', () => {
    const scenarios = (prefix: string) => cases.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));
    expect(scenarios('v5-').length).toBeGreaterThanOrEqual(17);
    expect(scenarios('v6-')).toEqual(scenarios('v5-'));
  });

  for (const fixtureCase of cases) {
    it(`${fixtureCase}: the summary, each pause and each answer as the app recorded them`, async () => {
      const spans = await loadFrameworkFixture('pydantic-ai', fixtureCase);
      const { recorded } = recordedRuns<Run>('pydantic-ai', fixtureCase);
      const runs = recorded.runs;
      // Claimed by its instrumentation scope: no span is read as the AI SDK's or the conventions' alone.
      expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set([PYDANTIC_AI_DIALECT_ID]));
      const graph = buildRunGraph(spans);
      expect(graph.summary).toStrictEqual(expectedSummary(runs));
      expect(graph.generates.map((generate) => generate.runtime)).toEqual(runs.map(() => PYDANTIC_AI_DIALECT_ID));
      expect(JSON.stringify(graph)).not.toMatch(/stopWhen|step limit|executed by the provider|tool-approval|not executed/);

      runs.forEach((run, position) => {
        const generate = graph.generates[position];
        expect(generate.status, run.label).toBe(run.outcome === 'completed' ? 'ok' : run.outcome === 'paused' ? 'interrupted' : 'error');
        if (run.outcome === 'failed') {
          expect(generate.errorMessage).toBe(`${run.error!.type}: ${run.error!.message}`);
        } else {
          expect(generate.finishReason).toBe(run.finishReason);
        }
        if (run.outcome === 'completed') expect(generate.text).toBe(run.output);
        // Each pending call: paused in Pydantic AI's words, never an error nor a tool that ran.
        for (const pending of run.pending) {
          const call = callsOf(graph, position).find((candidate) => candidate.ref === pending.toolCallId);
          const ran = run.toolsRun.find((tool) => tool.toolCallId === pending.toolCallId);
          expect(call, `${run.label} ${pending.toolCallId}`).toMatchObject({ name: pending.toolName, status: 'interrupted', input: pending.args, interrupt: { pausedAs: pausedAsOf(pending, ran) } });
          expect(call!.spanId !== undefined, `${pending.toolCallId}: a span only where its tool body started`).toBe(ran !== undefined);
        }
        expect(generate.pendingInterrupts.map((request) => request.ref).sort()).toEqual(run.pending.map((pending) => pending.toolCallId).sort());
        // Each tool body that ran: its outcome, a retry or failure handed to the model in Pydantic AI's words.
        for (const ran of run.toolsRun.filter((tool) => tool.status !== 'paused')) {
          const call = [...generate.resumeToolCalls, ...callsOf(graph, position)].find((candidate) => candidate.ref === ran.toolCallId && candidate.spanId !== undefined);
          expect(call, `${run.label} ${ran.toolCallId}`).toMatchObject({ name: ran.toolName, status: ran.status });
          if (ran.raised === 'ModelRetry' && call!.loopWentOn) expect(call!.runtimeState?.code).toBe('model-retry');
          if (ran.raised === 'ToolFailed') expect(call!.runtimeState?.code).toBe('tool-failed');
        }
        if (position === 0) {
          // An answer given inside the run (a HandleDeferredToolCalls handler): no pause, no span for what was not approved.
          for (const answer of run.answers ?? []) {
            const call = callsOf(graph, 0).find((candidate) => candidate.ref === answer.toolCallId)!;
            if (answer.answer === 'approve') expect(call.status).toBe('ok');
            else {
              expect(call).toMatchObject({ status: 'not-run', output: answer.message, runtimeState: { code: 'answered-in-run' } });
              expect(call.spanId).toBeUndefined();
            }
          }
          return;
        }
        // Each answer of a later run: tied to the call it answers, drawn by an answer edge, in Pydantic AI's words.
        const answers = run.answers ?? [];
        const linked = expectAnswersLinked({ graph, position, toolCallIds: answers.map((answer) => answer.toolCallId) });
        for (const [at, answer] of answers.entries()) {
          const { resolution, paused } = linked[at];
          if (answer.answer === 'approve') {
            const ran = run.toolsRun.find((tool) => tool.toolCallId === answer.toolCallId)!;
            const changed = ran.args !== undefined && JSON.stringify(ran.args) !== JSON.stringify(paused.input);
            expect(resolution).toMatchObject({ kind: 'restart', restartedToolCallId: generate.resumeToolCalls.find((call) => call.ref === answer.toolCallId)!.id });
            expect(resolution.words).toMatch(changed ? /^approved with new arguments \(ToolApproved\(override_args\)\)/ : /^approved \(DeferredToolResults\.approvals\)/);
            if (changed) expect(resolution.replacedInput).toEqual(ran.args);
          } else {
            expect(resolution).toMatchObject({ kind: 'respond', output: answer.answer === 'result' ? answer.value : (answer.message ?? answer.value) });
            // A denial: the tool did not run — no tool span of it in the answering run.
            expect(generate.resumeToolCalls.some((call) => call.ref === answer.toolCallId)).toBe(false);
            expect(resolution.words).toMatch(answer.answer === 'deny' ? /^denied \(ToolDenied\) — the tool did not run/ : /^the caller’s result \(DeferredToolResults\.calls\)/);
          }
        }
        expect(generate.resume?.evidence).toBe('history');
      });
    });
  }
});
