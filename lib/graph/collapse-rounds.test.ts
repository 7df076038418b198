import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { buildSpan, generateAttributes, modelAttributes, spanTimes, toolAttributes } from '../spans/testing/build-span';
import { buildRunGraph } from './build-run-graph';
import { collapseRounds, type RunGraphView, type ViewNode } from './collapse-rounds';
import type { RunGraph } from './run-graph';

const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

/**
 * A long tool loop the way genkit records it (each turn a generate nested in the previous
 * one, holding its model call and its tool call), for loops longer than any fixture.
 * `toolOutcome(turn)` makes a turn's tools fail or interrupt; the last turn answers with text.
 */
function longLoop({
  turns,
  toolsPerTurn = 1,
  toolOutcome = () => 'ok',
}: {
  turns: number;
  /** Parallel tool requests per turn. */
  toolsPerTurn?: number;
  toolOutcome?: (turn: number) => 'ok' | 'error' | 'interrupt';
}): Span[] {
  const spans: Span[] = [];
  let parentSpanId: string | undefined;
  for (let turn = 0; turn < turns; turn++) {
    const last = turn === turns - 1;
    // Only the outer generate's output is read: it finished with the text of the last turn.
    const output = turn === 0 ? { finishReason: 'stop', message: { role: 'model', content: [{ text: 'done' }] } } : undefined;
    const generate = buildSpan({ name: `generate ${turn}`, parentSpanId, ...spanTimes({ start: turn * 10, end: turns * 10 + 100 - turn }), attributes: generateAttributes(output) });
    const inputs = Array.from({ length: last ? 0 : toolsPerTurn }, (_, position) => ({ n: turn + 1, part: position }));
    const content = last ? [{ text: 'done' }] : inputs.map((input) => ({ toolRequest: { name: 'step', ref: `s${input.n}-${input.part}`, input } }));
    const model = buildSpan({
      name: `model ${turn}`,
      parentSpanId: generate.spanId,
      ...spanTimes({ start: turn * 10 + 1, end: turn * 10 + 2 }),
      attributes: { ...modelAttributes('fixture/long'), 'genkit:output': JSON.stringify({ message: { role: 'model', content }, finishReason: 'stop' }) },
    });
    spans.push(generate, model);
    const outcome = toolOutcome(turn);
    for (const input of inputs) {
      const tool = buildSpan({
        name: `tool ${turn}-${input.part}`,
        parentSpanId: generate.spanId,
        ...spanTimes({ start: turn * 10 + 3, end: turn * 10 + 4 }),
        status: outcome === 'error' ? { code: 2, message: `step ${turn + 1} failed` } : { code: 0 },
        attributes: {
          ...toolAttributes('step'),
          'genkit:input': JSON.stringify(input),
          ...(outcome === 'interrupt' ? { 'genkit:metadata:interrupt': JSON.stringify({ reason: 'check' }) } : {}),
        },
      });
      spans.push(tool);
    }
    parentSpanId = generate.spanId;
  }
  return spans;
}

const summaries = (view: RunGraphView) => view.nodes.filter((node) => node.kind === 'collapsed-rounds');
const visibleIds = (view: RunGraphView) => new Set(view.nodes.map((node) => node.id));

/** Every edge joins two drawn nodes, no node links to itself, no edge id repeats. */
function expectWellFormed(view: RunGraphView) {
  const ids = visibleIds(view);
  expect(ids.size, 'node ids are unique').toBe(view.nodes.length);
  for (const edge of view.edges) {
    expect(ids.has(edge.source), `edge ${edge.id}: source drawn`).toBe(true);
    expect(ids.has(edge.target), `edge ${edge.id}: target drawn`).toBe(true);
    expect(edge.source).not.toBe(edge.target);
  }
  expect(new Set(view.edges.map((edge) => edge.id)).size, 'edge ids are unique').toBe(view.edges.length);
}

/** Node ids reachable from `start` over flow edges. */
function reachable(view: RunGraphView, start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const edge of view.edges) {
      if (edge.kind === 'flow' && edge.source === current && !seen.has(edge.target)) {
        seen.add(edge.target);
        queue.push(edge.target);
      }
    }
  }
  return seen;
}

/** The node ids of the model and tool calls of turns `from`..`to` (1-based, inclusive). */
function turnNodeIds(graph: RunGraph, from: number, to: number, generate = graph.generates[0]): string[] {
  return generate.turns.slice(from - 1, to).flatMap((turn) => [...(turn.model ? [turn.model.id] : []), ...turn.toolCalls.map((call) => call.id)]);
}

describe('collapseRounds', () => {
  it('leaves a generate with no more turns than the threshold as it is', async () => {
    const graph = buildRunGraph(await fixture('multi-round'));
    expect(graph.generates[0].turns).toHaveLength(5);
    for (const view of [collapseRounds(graph), collapseRounds(graph, { threshold: 5, keep: 1 })]) {
      expect(view.nodes).toEqual(graph.nodes);
      expect(view.edges).toEqual(graph.edges);
      expect(view.groups).toEqual([]);
    }
  });

  it('by default folds the middle of a 30-turn loop into one summary, keeping 3 turns at each end', () => {
    const graph = buildRunGraph(longLoop({ turns: 30 }));
    const generate = graph.generates[0];
    expect(generate.turns).toHaveLength(30);
    const view = collapseRounds(graph);
    const id = `${generate.id}:turns:4-27`;
    expect(view.groups).toEqual([{ id, generateId: generate.id, fromTurn: 4, toTurn: 27, expanded: false }]);
    const [summary] = summaries(view);
    expect(summaries(view)).toHaveLength(1);
    expect(summary).toMatchObject({
      id,
      generateId: generate.id,
      traceId: generate.traceId,
      label: 'turns 4–27',
      status: '24 rounds, 24 tool calls — expand',
      tone: 'neutral',
      group: { id, fromTurn: 4, toTurn: 27, toolCalls: 24, interrupts: 0, errors: 0 },
    });
    const ids = visibleIds(view);
    for (const hidden of turnNodeIds(graph, 4, 27)) expect(ids.has(hidden), hidden).toBe(false);
    for (const kept of [...turnNodeIds(graph, 1, 3), ...turnNodeIds(graph, 28, 30)]) expect(ids.has(kept), kept).toBe(true);
    // The generate node and its final answer stay.
    expect(ids.has(generate.id)).toBe(true);
    expect(view.nodes.some((node) => node.kind === 'final-answer')).toBe(true);
    // 30 model + 29 tool + generate + final = 61 nodes; 24 + 24 hidden, 1 summary.
    expect(view.nodes).toHaveLength(61 - 48 + 1);
  });

  it('splits a long middle into summaries of chunkSize turns, the last one shorter', () => {
    const graph = buildRunGraph(longLoop({ turns: 60 }));
    const view = collapseRounds(graph);
    expect(view.groups.map((group) => [group.fromTurn, group.toTurn])).toEqual([
      [4, 28],
      [29, 53],
      [54, 57],
    ]);
    expect(summaries(view).map((node) => node.status)).toEqual(['25 rounds, 25 tool calls — expand', '25 rounds, 25 tool calls — expand', '4 rounds, 4 tool calls — expand']);
  });

  it('honours threshold, keep and chunkSize on a real 5-turn loop', async () => {
    const graph = buildRunGraph(await fixture('multi-round'));
    const view = collapseRounds(graph, { threshold: 2, keep: 1, chunkSize: 2 });
    expect(view.groups.map((group) => [group.fromTurn, group.toTurn])).toEqual([
      [2, 3],
      [4, 4],
    ]);
    const ids = visibleIds(view);
    expect(turnNodeIds(graph, 1, 1).every((id) => ids.has(id))).toBe(true);
    expect(turnNodeIds(graph, 5, 5).every((id) => ids.has(id))).toBe(true);
    expect(turnNodeIds(graph, 2, 4).some((id) => ids.has(id))).toBe(false);
    expectWellFormed(view);
  });

  it('re-wires edges to the summaries: no dangling ids, and the run still flows from generate to final answer', () => {
    const graph = buildRunGraph(longLoop({ turns: 60 }));
    const view = collapseRounds(graph);
    expectWellFormed(view);
    const [first, second, third] = summaries(view).map((node) => node.id);
    const generate = graph.generates[0];
    const lastKeptTool = generate.turns[2].toolCalls[0].id;
    const firstKeptModelAfter = generate.turns[57].model!.id;
    expect(view.edges).toContainEqual({ id: `${lastKeptTool}->${first}`, source: lastKeptTool, target: first, kind: 'flow' });
    expect(view.edges).toContainEqual({ id: `${first}->${second}`, source: first, target: second, kind: 'flow' });
    expect(view.edges).toContainEqual({ id: `${second}->${third}`, source: second, target: third, kind: 'flow' });
    expect(view.edges).toContainEqual({ id: `${third}->${firstKeptModelAfter}`, source: third, target: firstKeptModelAfter, kind: 'flow' });
    expect(reachable(view, generate.id).has(`${generate.id}:final`)).toBe(true);
  });

  it('parallel calls folded into a summary join the next turn by one edge, not one per call', () => {
    const graph = buildRunGraph(longLoop({ turns: 30, toolsPerTurn: 2 }));
    const view = collapseRounds(graph);
    expectWellFormed(view);
    const [summary] = summaries(view);
    expect(summary.group).toMatchObject({ fromTurn: 4, toTurn: 27, toolCalls: 48 });
    const generate = graph.generates[0];
    // Both parallel calls of turn 3 lead into the summary; the summary leads once into turn 28.
    expect(view.edges.filter((edge) => edge.target === summary.id).map((edge) => edge.source).sort()).toEqual(generate.turns[2].toolCalls.map((call) => call.id).sort());
    expect(view.edges.filter((edge) => edge.source === summary.id)).toEqual([
      { id: `${summary.id}->${generate.turns[27].model!.id}`, source: summary.id, target: generate.turns[27].model!.id, kind: 'flow' },
    ]);
  });

  it('edges inside a summary disappear: a real parallel round folded whole', async () => {
    // plain-round: turn 1 asks for two tools in parallel, both join at turn 2.
    const graph = buildRunGraph(await fixture('plain-round'));
    const view = collapseRounds(graph, { threshold: 1, keep: 0 });
    expectWellFormed(view);
    const [summary] = summaries(view);
    expect(summary.group).toMatchObject({ fromTurn: 1, toTurn: 2, toolCalls: 2 });
    const generate = graph.generates[0];
    expect(view.edges).toEqual([
      { id: `${generate.id}->${summary.id}`, source: generate.id, target: summary.id, kind: 'flow' },
      { id: `${summary.id}->${generate.id}:final`, source: summary.id, target: `${generate.id}:final`, kind: 'flow' },
    ]);
  });

  it('an expanded group is drawn in full while the others stay folded; the groups list says which', () => {
    const graph = buildRunGraph(longLoop({ turns: 60 }));
    const folded = collapseRounds(graph);
    const middle = folded.groups[1].id;
    const view = collapseRounds(graph, { expanded: new Set([middle]) });
    expect(view.groups.map((group) => group.expanded)).toEqual([false, true, false]);
    expect(summaries(view).map((node) => node.id)).toEqual([folded.groups[0].id, folded.groups[2].id]);
    const ids = visibleIds(view);
    expect(turnNodeIds(graph, 29, 53).every((id) => ids.has(id))).toBe(true);
    expect(turnNodeIds(graph, 4, 28).some((id) => ids.has(id))).toBe(false);
    expectWellFormed(view);
    // The expanded turns join the summaries on either side.
    const generate = graph.generates[0];
    expect(view.edges).toContainEqual(expect.objectContaining({ source: folded.groups[0].id, target: generate.turns[28].model!.id }));
    expect(view.edges).toContainEqual(expect.objectContaining({ source: generate.turns[52].toolCalls[0].id, target: folded.groups[2].id }));
  });

  it('with every group expanded the graph is drawn exactly as built', () => {
    const graph = buildRunGraph(longLoop({ turns: 30 }));
    const view = collapseRounds(graph, { expanded: new Set(collapseRounds(graph).groups.map((group) => group.id)) });
    expect(view.nodes).toEqual(graph.nodes);
    expect(view.edges).toEqual(graph.edges);
    expect(view.groups.every((group) => group.expanded)).toBe(true);
  });

  it('a summary counts the interrupts and errors it hides, and takes their tone (an error before an interrupt)', () => {
    const outcome = (turn: number) => (turn === 5 || turn === 6 ? 'interrupt' : turn === 10 ? 'error' : 'ok');
    const graph = buildRunGraph(longLoop({ turns: 40, toolOutcome: outcome }));
    const [first, second] = summaries(collapseRounds(graph, { chunkSize: 9 }));
    // Turns 4–12 hold the interrupted turns 6, 7 and the failed turn 11.
    expect(first.group).toMatchObject({ fromTurn: 4, toTurn: 12, toolCalls: 9, interrupts: 2, errors: 1 });
    expect(first.tone).toBe('error');
    expect(second.group).toMatchObject({ fromTurn: 13, interrupts: 0, errors: 0 });
    expect(second.tone).toBe('neutral');
    const onlyInterrupts = buildRunGraph(longLoop({ turns: 40, toolOutcome: (turn) => (turn === 5 ? 'interrupt' : 'ok') }));
    const [interrupted] = summaries(collapseRounds(onlyInterrupts, { chunkSize: 9 }));
    expect([interrupted.tone, interrupted.group?.interrupts, interrupted.group?.errors]).toEqual(['interrupted', 1, 0]);
  });

  it('counts a real interrupt and a real tool failure folded into a summary', async () => {
    const interrupted = buildRunGraph(await fixture('interrupt-restart'));
    const [paused] = summaries(collapseRounds(interrupted, { threshold: 0, keep: 0 })).filter((node) => node.generateId === interrupted.generates[0].id);
    expect(paused).toMatchObject({ tone: 'interrupted', group: { toolCalls: 1, interrupts: 1, errors: 0 } });
    const failed = buildRunGraph(await fixture('tool-error'));
    const [broken] = summaries(collapseRounds(failed, { threshold: 0, keep: 0 }));
    expect(broken).toMatchObject({ tone: 'error', group: { toolCalls: 1, interrupts: 0, errors: 1 } });
  });

  it('answer edges from a folded interrupt start at its summary, still as answer edges', async () => {
    // pending-output: the parked lookupAccount and the interrupted transferMoney are answered by the resume.
    const graph = buildRunGraph(await fixture('pending-output'));
    const [original, resume] = graph.generates;
    const view = collapseRounds(graph, { threshold: 0, keep: 0 });
    expectWellFormed(view);
    const folded = summaries(view).find((node) => node.generateId === original.id)!;
    const answers = view.edges.filter((edge) => edge.kind === 'answer');
    const resolutionIds = resume.resume!.resolutions.map((resolution) => resolution.id).sort();
    expect(answers.map((edge) => edge.target).sort()).toEqual(resolutionIds);
    for (const edge of answers) expect(edge).toEqual({ id: `${folded.id}=>${edge.target}`, source: folded.id, target: edge.target, kind: 'answer' });
  });

  it('re-wired edges keep the id naming the page and the e2e tests find edges by: "=>" for answers, "->" for flow', async () => {
    for (const name of ['interrupt-respond', 'pending-output', 'unanswered-interrupt']) {
      const graph = buildRunGraph(await fixture(name));
      const view = collapseRounds(graph, { threshold: 0, keep: 0 });
      expectWellFormed(view);
      expect(view.edges.some((edge) => edge.kind === 'answer'), name).toBe(true);
      for (const edge of view.edges) expect(edge.id, name).toBe(`${edge.source}${edge.kind === 'answer' ? '=>' : '->'}${edge.target}`);
    }
  });

  it('keeps an ambiguous answer edge ambiguous when another generate is folded', async () => {
    // A guessed answer edge must stay a guess when the page folds another generate's rounds.
    const graph = buildRunGraph([...(await fixture('identical-conversations')), ...(await fixture('multi-round'))]);
    const ambiguous = graph.edges.filter((edge) => edge.ambiguous);
    expect(ambiguous).toHaveLength(2);
    const view = collapseRounds(graph, { threshold: 2, keep: 1 });
    expect(summaries(view)).toHaveLength(1);
    for (const edge of ambiguous) expect(view.edges).toContainEqual(edge);
  });

  it('folds each long generate on its own, with its own group ids', async () => {
    const graph = buildRunGraph([...longLoop({ turns: 30 }), ...(await fixture('multi-round'))]);
    const view = collapseRounds(graph, { threshold: 4, keep: 1, chunkSize: 100 });
    expect(view.groups.map((group) => [group.generateId, group.fromTurn, group.toTurn])).toEqual(
      graph.generates.map((generate) => [generate.id, 2, generate.turns.length - 1]),
    );
    expect(new Set(summaries(view).map((node: ViewNode) => node.generateId)).size).toBe(2);
    expectWellFormed(view);
  });

  it('does not change the graph it is given', () => {
    const graph = buildRunGraph(longLoop({ turns: 60 }));
    const before = JSON.stringify(graph);
    collapseRounds(graph);
    collapseRounds(graph, { expanded: new Set([collapseRounds(graph).groups[0].id]) });
    expect(JSON.stringify(graph)).toBe(before);
  });
});
