import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { GenerateCall, GraphSummary, RunGraph, ToolCall } from '../../../graph/run-graph';
import { dialectOf, dialectTitle } from '../../index';
import { frameworkFixtureCases, loadFrameworkFixture, recordedRuns } from '../../testing/framework-fixtures';
import { STRANDS_DIALECT_ID } from '.';

/**
 * Every recorded Strands Agents fixture (lib/runtimes/strands/__fixtures__/, made by
 * scripts/fixtures/frameworks/strands/app.py in the three content modes) read by the Strands
 * dialect and asserted against what the app printed while it ran (`recorded`): one generate per
 * `agent(…)` call, its outcome and stop reason, every tool body that ran (by tool use id and
 * status), every interrupt it paused on (its id, name, reason and who raised it) drawn as a pause
 * in Strands' words, and every answer of the next run tied to the interrupt it answered.
 */
interface RecordedRun {
  label: string;
  outcome: 'paused' | 'completed' | 'failed';
  stopReason: string | null;
  pending: { interruptId: string; name: string; reason: unknown; toolUseId: string | null; raisedBy: string }[];
  pendingToolUses?: { toolUseId: string; toolName: string }[];
  toolsRun: { toolUseId: string; toolName: string; status: 'ok' | 'error' | 'interrupted' }[];
  answers?: { interruptId: string; name: string; response: unknown }[];
  output?: string | null;
  error: { type: string; message: string } | null;
}

const CASES = frameworkFixtureCases('strands');
/** Model calls: the scripted model's turns each case consumed (the record does not count them). */
const MODEL_CALLS: Record<string, number> = { 'parallel-round': 2, 'tool-error-fails-run': 1, 'tool-error-to-model': 2, 'intervention-trust': 3 };

const toolCallsOf = (generate: GenerateCall): ToolCall[] => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)];
const scenarioOf = (fixtureCase: string) => fixtureCase.replace(/^(events|attributes|legacy)-/, '');
/** Strands' words for who raised the interrupt, as the app's record names it. */
const PAUSED_AS: Record<string, RegExp> = { 'BeforeToolCallEvent hook': /^held by a hook/, 'HumanInTheLoop intervention': /^approval required \(HumanInTheLoop\)/, 'tool_context.interrupt': /^interrupt \(/ };

/** The summary the record says the graph must have: each field from what the app did. */
function expectedSummary(fixtureCase: string, runs: RecordedRun[], spanCount: { traces: number }): GraphSummary {
  const answers = runs.flatMap((run) => run.answers ?? []);
  const ranInAnswer = (answer: { interruptId: string }) => runs.some((run) => run.answers !== undefined && run.toolsRun.some((tool) => answer.interruptId.includes(`:${tool.toolUseId}:`)));
  const last = runs.at(-1) as RecordedRun;
  return {
    traces: spanCount.traces,
    generates: runs.length,
    modelCalls: MODEL_CALLS[scenarioOf(fixtureCase)] ?? runs.length,
    toolCalls: runs.reduce((count, run) => count + run.toolsRun.length, 0),
    interrupts: runs.reduce((count, run) => count + run.pending.length, 0),
    responds: answers.filter((answer) => !ranInAnswer(answer)).length,
    restarts: answers.filter(ranInAnswer).length,
    pendingReused: 0,
    errors: runs.filter((run) => run.outcome === 'failed').length,
    finishReason: last.outcome === 'failed' ? 'error' : last.stopReason,
  };
}

/** The paused call an interrupt holds: by the tool use id the app knew, else (the intervention names none) the one call of the paused turn without a result. */
function pausedCallOf(options: { generate: GenerateCall; run: RecordedRun; pending: RecordedRun['pending'][number] }): ToolCall | undefined {
  const { generate, run, pending } = options;
  const ran = new Set(run.toolsRun.filter((tool) => tool.status !== 'interrupted').map((tool) => tool.toolUseId));
  const waiting = (run.pendingToolUses ?? []).filter((use) => !ran.has(use.toolUseId)).map((use) => use.toolUseId);
  const ref = pending.toolUseId ?? (waiting.length === 1 ? waiting[0] : undefined);
  return toolCallsOf(generate).find((call) => call.ref === ref);
}

describe('Strands Agents fixtures: the graph says what the app did', () => {
  it('has the recorded cases of the three content modes', () => {
    expect(CASES.filter((name) => name.startsWith('events-'))).toHaveLength(11);
    expect(CASES.filter((name) => name.startsWith('attributes-'))).toHaveLength(11);
    expect(CASES.filter((name) => name.startsWith('legacy-'))).toHaveLength(4);
  });

  for (const fixtureCase of CASES) {
    describe(fixtureCase, () => {
      const load = async () => {
        const spans = await loadFrameworkFixture('strands', fixtureCase);
        const { recorded } = recordedRuns<RecordedRun>('strands', fixtureCase);
        return { spans, runs: recorded.runs, spansEnded: recorded.spansEnded as number, graph: buildRunGraph(spans) };
      };

      it('is read by the Strands dialect, every span, and its summary is what the app did', async () => {
        const { spans, runs, spansEnded, graph } = await load();
        expect(spans).toHaveLength(spansEnded);
        expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set([STRANDS_DIALECT_ID]));
        expect(graph.generates.map((generate) => generate.runtime)).toEqual(runs.map(() => STRANDS_DIALECT_ID));
        expect(graph.summary).toStrictEqual(expectedSummary(fixtureCase, runs, { traces: new Set(spans.map((span) => span.traceId)).size }));
      });

      it('each run: its outcome, stop reason, answer or error, and the tools that ran', async () => {
        const { runs, graph } = await load();
        runs.forEach((run, position) => {
          const generate = graph.generates[position];
          expect(generate.status).toBe({ paused: 'interrupted', completed: 'ok', failed: 'error' }[run.outcome]);
          expect(generate.finishReason ?? null).toBe(run.outcome === 'failed' ? null : run.stopReason);
          if (run.outcome === 'completed') expect(generate.text?.trim()).toBe(run.output?.trim());
          if (run.error) {
            expect(generate.errorMessage).toBe(run.error.message);
            expect(generate.errorStatus?.split('.').at(-1)).toBe(run.error.type);
          }
          const calls = toolCallsOf(generate).filter((call) => call.spanId !== undefined);
          expect(calls.map((call) => [call.ref, call.name, call.status])).toEqual(run.toolsRun.map((tool) => [tool.toolUseId, tool.toolName, tool.status]));
          expect(generate.notes).toEqual([]);
        });
      });

      it('each interrupt is a pause in Strands’ words — never an error, a tool that ran, or "never ran" — with its id, name and reason', async () => {
        const { runs, graph } = await load();
        runs.forEach((run, position) => {
          const generate = graph.generates[position];
          const paused = toolCallsOf(generate).filter((call) => call.status === 'interrupted');
          expect(paused).toHaveLength(run.pending.length);
          expect(generate.pendingInterrupts.map((request) => request.ref).sort()).toEqual(paused.map((call) => call.ref).sort());
          for (const pending of run.pending) {
            const call = pausedCallOf({ generate, run, pending });
            expect(call, `${run.label}: the call of interrupt ${pending.name}`).toBeDefined();
            expect(call!.status).toBe('interrupted');
            expect(call!.interrupt).toMatchObject({ pauseId: pending.interruptId, metadata: { interrupt: pending.name, reason: pending.reason } });
            expect(call!.interrupt!.pausedAs).toMatch(PAUSED_AS[pending.raisedBy]);
            // A hook or the intervention holds the call before the tool: no tool span. A tool's own interrupt: its span.
            expect(call!.spanId !== undefined).toBe(pending.raisedBy === 'tool_context.interrupt');
            const node = graph.nodes.find((candidate) => candidate.id === call!.id);
            expect(node).toMatchObject({ kind: 'tool-interrupt', tone: 'interrupted' });
            expect(node!.status).toMatch(/^paused: (held by a hook|approval required|interrupt)/);
          }
        });
      });

      it('each answer of the next run is tied to the interrupt it answered, by tool use id: ran = restart, denied = respond with the tool not run', async () => {
        const { runs, graph } = await load();
        const answerEdges = graph.edges.filter((edge) => edge.kind === 'answer');
        const expectedEdges: [string, string][] = [];
        runs.forEach((run, position) => {
          if (!run.answers) {
            expect(graph.generates[position].resume).toBeUndefined();
            return;
          }
          const answering = graph.generates[position];
          const pausedRun = runs[position - 1];
          const paused = graph.generates[position - 1];
          expect(answering.resume).toMatchObject({ answersGenerateId: paused.id });
          expect(answering.resume!.resolutions).toHaveLength(run.answers.length);
          for (const answer of run.answers) {
            const pending = pausedRun.pending.find((candidate) => candidate.interruptId === answer.interruptId)!;
            const call = pausedCallOf({ generate: paused, run: pausedRun, pending })!;
            const resolution = answering.resume!.resolutions.find((candidate) => candidate.answersToolCallId === call.id);
            expect(resolution, `the answer to ${answer.name}`).toBeDefined();
            const ran = run.toolsRun.find((tool) => tool.toolUseId === call.ref);
            if (ran) {
              expect(resolution).toMatchObject({ kind: 'restart', restartedToolCallId: answering.resumeToolCalls.find((tool) => tool.ref === call.ref)!.id });
              expect(resolution!.words).toMatch(/^(approved|resumed)/);
            } else {
              expect(resolution!.kind).toBe('respond');
              expect(resolution!.words).toMatch(/^denied by (the hook|HumanInTheLoop) — the tool did not run \(no execute_tool span in the answering run\)/);
              expect(toolCallsOf(answering).some((tool) => tool.ref === call.ref)).toBe(false);
            }
            expect(call.resolvedBy).toEqual([{ generateId: answering.id, kind: resolution!.kind, nodeId: resolution!.id }]);
            expectedEdges.push([call.id, resolution!.id]);
          }
        });
        expect(answerEdges.map((edge) => [edge.source, edge.target])).toEqual(expectedEdges);
      });
    });
  }
});

describe('Strands Agents’ words', () => {
  const graphOf = async (fixtureCase: string): Promise<RunGraph> => buildRunGraph(await loadFrameworkFixture('strands', fixtureCase));

  it('names the framework: the dialect’s title and Graph JSON runtime', async () => {
    expect(dialectTitle(STRANDS_DIALECT_ID)).toBe('Strands Agents');
    expect((await graphOf('events-parallel-round')).generates[0].runtime).toBe('strands');
  });

  it('an error handed to the model is Strands’ tool error; one that fails the run fails it with EventLoopException', async () => {
    const handed = await graphOf('events-tool-error-to-model');
    expect(toolCallsOf(handed.generates[0])[0]).toMatchObject({ status: 'error', loopWentOn: true, errorMessage: "No booking 'H-999' exists.", runtimeState: { code: 'tool-error' } });
    const failed = await graphOf('attributes-tool-error-fails-run');
    expect(failed.generates[0]).toMatchObject({ status: 'error', errorStatus: 'strands.types.exceptions.EventLoopException' });
    expect(toolCallsOf(failed.generates[0]).find((call) => call.ref === 'tooluse_read_trip')).toMatchObject({ status: 'error', errorMessage: 'No itinerary at /trips/paris.json' });
  });

  it('a paused run’s span is interrupted, never ok or an error (the trace list and the workbench find it by that)', async () => {
    const spans = await loadFrameworkFixture('strands', 'events-tool-interrupt-confirm');
    const graph = buildRunGraph(spans);
    const root = spans.find((span) => span.spanId === graph.generates[0].spanId)!;
    expect(dialectOf(root)!.classify(root).outcome).toBe('interrupted');
    const tool = spans.find((span) => span.spanId === toolCallsOf(graph.generates[0])[0].spanId)!;
    expect(dialectOf(tool)!.classify(tool).outcome).toBe('interrupted');
  });

  it('the detail panel shows a model call’s messages in every content mode: attributes, operation-details events, legacy events', async () => {
    for (const mode of ['attributes', 'events', 'legacy']) {
      const spans = await loadFrameworkFixture('strands', `${mode}-parallel-round`);
      const chat = spans.find((span) => span.name === 'chat')!;
      const values = dialectOf(chat)!.spanValues(chat, false);
      expect(String(values.input), mode).toContain('What is the weather in Paris, in Fahrenheit too?');
      expect(String(values.output), mode).toContain('tooluse_weather_paris');
      const tool = spans.find((span) => span.name === 'execute_tool get_weather')!;
      expect(String(dialectOf(tool)!.spanValues(tool, false).output), mode).toContain('Sunny, 21 °C in Paris');
    }
  });

  it('interrupts that cannot be read are named in the call’s notes, and the call is still paused', async () => {
    const spans = (await loadFrameworkFixture('strands', 'events-hook-approve')).map((span) =>
      span.parentSpanId === undefined && span.events.length > 0
        ? { ...span, events: span.events.map((event) => (event.attributes['gen_ai.output.messages'] !== undefined ? { ...event, attributes: { ...event.attributes, 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: "[{'id': 'v1:before" }], finish_reason: 'interrupt' }]) } } : event)) }
        : span,
    );
    const paused = buildRunGraph(spans).generates[0];
    expect(paused.status).toBe('interrupted');
    expect(paused.notes).toEqual([expect.stringMatching(/^Strands stopped this run on interrupts \(stop reason interrupt\), but the interrupts in the run's answer could not be read/)]);
    expect(toolCallsOf(paused).find((call) => call.ref === 'tooluse_book_paris')).toMatchObject({ status: 'interrupted', interrupt: { pausedAs: 'not executed' } });
  });
});
