import type { GraphEdge, GraphNode, RunGraph } from './run-graph';

/** A graph node as drawn: a real node, or a summary standing for a run of collapsed rounds. */
export interface ViewNode extends Omit<GraphNode, 'kind'> {
  /** `ghost`: where a step-by-step run is paused (not a span yet). */
  kind: GraphNode['kind'] | 'collapsed-rounds' | 'ghost';
  /** For `collapsed-rounds`: what it stands for; expand it by its group id. */
  group?: { id: string; fromTurn: number; toTurn: number; toolCalls: number; interrupts: number; errors: number };
}

export interface RunGraphView {
  nodes: ViewNode[];
  edges: GraphEdge[];
  /** Every collapsible group, expanded or not, so the page can offer "collapse" again. */
  groups: { id: string; generateId: string; fromTurn: number; toTurn: number; expanded: boolean }[];
}

export interface CollapseOptions {
  /** Generates with more turns than this get collapsed middles. */
  threshold?: number;
  /** Turns kept visible at each end. */
  keep?: number;
  /** Turns per summary node. */
  chunkSize?: number;
  /** Group ids the user expanded. */
  expanded?: ReadonlySet<string>;
}

/**
 * Keeps long loops usable: the middle rounds of a long generate fold into summary nodes
 * (a few dozen nodes instead of thousands), each expandable on its own. Pure.
 */
export function collapseRounds(graph: RunGraph, options: CollapseOptions = {}): RunGraphView {
  const threshold = options.threshold ?? 20;
  const keep = options.keep ?? 3;
  const chunkSize = options.chunkSize ?? 25;
  const expanded = options.expanded ?? new Set<string>();
  const hiddenBy = new Map<string, string>();
  const summaries: ViewNode[] = [];
  const groups: RunGraphView['groups'] = [];

  for (const generate of graph.generates) {
    if (generate.turns.length <= threshold) continue;
    for (let from = keep; from < generate.turns.length - keep; from += chunkSize) {
      const to = Math.min(from + chunkSize, generate.turns.length - keep) - 1;
      const id = `${generate.id}:turns:${from + 1}-${to + 1}`;
      const isExpanded = expanded.has(id);
      groups.push({ id, generateId: generate.id, fromTurn: from + 1, toTurn: to + 1, expanded: isExpanded });
      if (isExpanded) continue;
      const turns = generate.turns.slice(from, to + 1);
      const calls = turns.flatMap((turn) => turn.toolCalls);
      for (const turn of turns) {
        if (turn.model) hiddenBy.set(turn.model.id, id);
        for (const call of turn.toolCalls) hiddenBy.set(call.id, id);
      }
      summaries.push({
        id,
        kind: 'collapsed-rounds',
        generateId: generate.id,
        traceId: generate.traceId,
        label: `turns ${from + 1}–${to + 1}`,
        status: `${turns.length} rounds, ${calls.length} tool calls — expand`,
        tone: calls.some((call) => call.status === 'error') ? 'error' : calls.some((call) => call.status === 'interrupted') ? 'interrupted' : 'neutral',
        group: {
          id,
          fromTurn: from + 1,
          toTurn: to + 1,
          toolCalls: calls.length,
          interrupts: calls.filter((call) => call.status === 'interrupted').length,
          errors: calls.filter((call) => call.status === 'error').length,
        },
      });
    }
  }
  if (hiddenBy.size === 0) return { nodes: graph.nodes, edges: graph.edges, groups };

  const nodes: ViewNode[] = [];
  for (const node of graph.nodes) {
    if (hiddenBy.has(node.id)) continue;
    nodes.push(node);
  }
  nodes.push(...summaries);
  const edges = new Map<string, GraphEdge>();
  for (const edge of graph.edges) {
    const source = hiddenBy.get(edge.source) ?? edge.source;
    const target = hiddenBy.get(edge.target) ?? edge.target;
    if (source === target) continue;
    const id = `${source}${edge.kind === 'answer' ? '=>' : '->'}${target}`;
    // Keep everything else the edge says (an answer edge's ambiguity) when it is re-wired.
    if (!edges.has(id)) edges.set(id, { ...edge, id, source, target });
  }
  return { nodes, edges: [...edges.values()], groups };
}
