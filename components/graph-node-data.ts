import type { GenerateCall, ModelCall, Resolution, RunGraph, ToolCall } from '@/lib/graph/run-graph';

/** What the detail panel knows about a node beyond its own fields, by kind: read from the graph the server built. */
export interface GraphNodeData {
  /** The generate call the node stands for (a generate node). */
  generate?: GenerateCall;
  /** The tool call behind the node (tool and interrupt nodes). */
  toolCall?: ToolCall;
  /** The model call behind the node. */
  modelCall?: ModelCall;
  /** A resume's answer (respond / restart / pending / unresolved nodes) and the generate that sent it. */
  resolution?: { generate: GenerateCall; resolution: Resolution };
}

/** A resolution node by id, with its generate. */
export function findResolution(graph: RunGraph, nodeId: string): { generate: GenerateCall; resolution: Resolution } | undefined {
  for (const generate of graph.generates) {
    const resolution = generate.resume?.resolutions.find((candidate) => candidate.id === nodeId);
    if (resolution) return { generate, resolution };
  }
  return undefined;
}

/** The typed data of a graph node, looked up by id in the graph's generates (plain data; nothing is parsed). */
export function graphNodeData(graph: RunGraph, nodeId: string): GraphNodeData {
  const data: GraphNodeData = {};
  for (const generate of graph.generates) {
    if (generate.id === nodeId) data.generate = generate;
    for (const call of generate.resumeToolCalls) if (call.id === nodeId) data.toolCall = call;
    for (const turn of generate.turns) {
      if (turn.model?.id === nodeId) data.modelCall = turn.model;
      for (const call of turn.toolCalls) if (call.id === nodeId) data.toolCall = call;
    }
  }
  data.resolution = findResolution(graph, nodeId);
  return data;
}
