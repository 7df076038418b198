import type { PauseInfo } from '../contract/pause';
import type { ViewNode } from './collapse-rounds';
import type { GraphEdge, RunGraph } from './run-graph';

/**
 * Ghost nodes for a paused run: "paused before <model call | tool#ref>", placed where the
 * paused step will appear — a tool pause after the model call that asked for it, a model
 * pause after the last finished step of the latest generate. Pure.
 *
 * Where the paused step already has an open span, the ghost takes its place: genkit's hooks
 * run before its model and tool spans start, but the AI SDK opens `chat` before the wrapped
 * model is called and `execute_tool` before `execute`, so there the step is drawn "running".
 */
export function ghostNodes(graph: RunGraph, pauses: readonly PauseInfo[]): { nodes: ViewNode[]; edges: GraphEdge[]; hidden: Set<string> } {
  const nodes: ViewNode[] = [];
  const edges: GraphEdge[] = [];
  const hidden = new Set<string>();
  const generate = graph.generates[graph.generates.length - 1];
  if (!generate || pauses.length === 0) return { nodes, edges, hidden };

  const lastTurn = generate.turns[generate.turns.length - 1];
  // A model call paused inside its open span (the AI SDK): hidden, the ghost stands where it would be.
  const openModel = pauses.some((pause) => pause.kind === 'model') && lastTurn?.model?.status === 'running' ? lastTurn.model : undefined;
  if (openModel) hidden.add(openModel.id);
  const flows = graph.edges.filter((edge) => edge.kind === 'flow' && !hidden.has(edge.source));
  const ownNodes = new Set(graph.nodes.filter((node) => node.generateId === generate.id && !hidden.has(node.id)).map((node) => node.id));
  const hasOutgoingFlow = new Set(flows.filter((edge) => !hidden.has(edge.target)).map((edge) => edge.source));
  const sinks = graph.nodes.filter((node) => ownNodes.has(node.id) && !hasOutgoingFlow.has(node.id) && node.kind !== 'tool-interrupt' && node.kind !== 'failure' && node.kind !== 'final-answer');
  // The turn whose model asked for the paused tools: the last one with a model call drawn.
  const askingTurn = [...generate.turns].reverse().find((turn) => turn.model && !hidden.has(turn.model.id));

  for (const pause of pauses) {
    const id = `ghost:${pause.pauseId}`;
    let sources: string[];
    let label: string;
    if (pause.kind === 'tool' && pause.tool) {
      label = `${pause.tool.name}${pause.tool.ref ? `#${pause.tool.ref}` : ''}`;
      // The request is already drawn (from the model's answer) as a call that has not run, or
      // as running when its span is open (the AI SDK): the ghost takes its place.
      const waiting = askingTurn?.toolCalls.find(
        (call) => (call.status === 'not-run' || call.status === 'running') && !hidden.has(call.id) && call.name === pause.tool!.name && (call.ref ?? '') === (pause.tool!.ref ?? ''),
      );
      if (waiting) hidden.add(waiting.id);
      sources = askingTurn?.model ? [askingTurn.model.id] : [generate.id];
    } else {
      label = `model call ${pause.modelTurn ?? ''}`.trim();
      sources = sinks.length > 0 ? sinks.map((node) => node.id) : [generate.id];
    }
    nodes.push({
      id,
      kind: 'ghost',
      generateId: generate.id,
      traceId: generate.traceId,
      label: `paused before ${label}`,
      status: 'waiting for Step, Continue or a decision',
      tone: 'interrupted',
    });
    for (const source of sources) edges.push({ id: `${source}->${id}`, source, target: id, kind: 'flow' });
  }
  return { nodes, edges, hidden };
}
