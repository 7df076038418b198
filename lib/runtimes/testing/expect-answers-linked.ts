/**
 * What every framework's fixture test asserts of an answering run: each answer the app sent is a
 * resolution of the call at `position`, tied to the paused call of an earlier run that it answers,
 * recorded on that call, and drawn by an answer edge. Gives each answer's resolution and paused
 * call, for the framework's own assertions on its words.
 */
import { expect } from 'vitest';
import type { Resolution, RunGraph, ToolCall } from '../../graph/run-graph';

export function expectAnswersLinked(options: { graph: RunGraph; position: number; toolCallIds: readonly string[] }): { toolCallId: string; resolution: Resolution; paused: ToolCall }[] {
  const { graph, position } = options;
  const generate = graph.generates[position];
  const resolutions = generate.resume?.resolutions ?? [];
  expect(resolutions.map((resolution) => resolution.request.ref).sort()).toEqual([...options.toolCallIds].sort());
  return options.toolCallIds.map((toolCallId) => {
    const resolution = resolutions.find((candidate) => candidate.request.ref === toolCallId)!;
    const paused = graph.generates
      .slice(0, position)
      .flatMap((earlier) => earlier.turns.flatMap((turn) => turn.toolCalls))
      .find((call) => call.ref === toolCallId && call.status === 'interrupted')!;
    expect(resolution.answersToolCallId).toBe(paused.id);
    expect(paused.resolvedBy).toContainEqual({ generateId: generate.id, kind: resolution.kind, nodeId: resolution.id });
    expect(graph.edges).toContainEqual(expect.objectContaining({ kind: 'answer', source: paused.id, target: resolution.id }));
    return { toolCallId, resolution, paused };
  });
}
